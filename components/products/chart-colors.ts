/**
 * Series colours of the charts. Each sits between light and dark (relative luminance about
 * 0.13–0.30), so a line or area keeps a 3:1 contrast on the white card and on the dark one.
 */
const CHANNEL_COLORS: Record<string, string> = {
  facebook: "#6366f1",
  google: "#0284c7",
  tiktok: "#ec4899",
  linkedin: "#0d9488",
  pinterest: "#e11d48",
  snapchat: "#a16207",
  email: "#8b5cf6",
  organic: "#64748b",
};
/** Channels the dashboard does not know are drawn in neutral greys, never dropped. */
const FALLBACK_COLORS = ["#78716c", "#6b7280", "#737373", "#71717a"];

export const colorOf = (channel: string, index: number) => CHANNEL_COLORS[channel] ?? FALLBACK_COLORS[index % FALLBACK_COLORS.length]!;

export const BAR_COLOR = "#6366f1";
export const OTHER_BAR_COLOR = "#64748b";

/** Every colour a chart may draw with, for the contrast check. */
export const seriesColors = [...Object.values(CHANNEL_COLORS), ...FALLBACK_COLORS, BAR_COLOR, OTHER_BAR_COLOR];
