/**
 * Series colours of the charts. The channels take the Okabe-Ito palette, which people with
 * any common colour-vision deficiency can still tell apart, in two tones: darker where the
 * card is white, the palette's own where it is dark, so each keeps a 3:1 contrast on its card.
 */
const CHANNEL_PALETTE = {
  light: ["#0072B2", "#A96F00", "#009E73", "#D55E00", "#2F85C0", "#CC79A7"],
  dark: ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7"],
} as const;
/** "Other" (the smallest channels together) is grey in both schemes. */
const OTHER_COLOR = { light: "#6b7280", dark: "#94a3b8" } as const;

export type ColorScheme = keyof typeof CHANNEL_PALETTE;

/** At most this many channels are drawn each in its own colour; the smaller rest is "Other". */
export const MAX_CHANNEL_SERIES = CHANNEL_PALETTE.light.length;
export const OTHER_CHANNEL = "Other";

/** The colour of a channel series by its rank (largest first); "Other" in grey. */
export const channelColor = (rank: number, scheme: ColorScheme, other = false) =>
  other ? OTHER_COLOR[scheme] : CHANNEL_PALETTE[scheme][rank % MAX_CHANNEL_SERIES]!;

export const BAR_COLOR = "#6366f1";
export const OTHER_BAR_COLOR = "#64748b";

/** Every colour a chart may draw with on each card, for the contrast check. */
export const seriesColors: Record<ColorScheme, readonly string[]> = {
  light: [...CHANNEL_PALETTE.light, OTHER_COLOR.light, BAR_COLOR, OTHER_BAR_COLOR],
  dark: [...CHANNEL_PALETTE.dark, OTHER_COLOR.dark, BAR_COLOR, OTHER_BAR_COLOR],
};
