/**
 * Series colours of the charts, each the same wherever it appears (every range, page and chart):
 * a channel's colour follows the channel, never its rank. Eight channel colours per scheme, from
 * the Okabe-Ito palette and further hues, darker where the card is white and lighter where it is
 * dark, so each keeps a 3:1 contrast on its card; every two colours of a scheme (the channels,
 * Other, the store's own line and bars, the comparison lines and the target) are at least
 * ΔE 20 (CIE76) apart, so no two read as one (chart-colors.test.ts computes every pair).
 */
const CHANNEL_PALETTE = {
  light: ["#0072B2", "#A96F00", "#009E73", "#D55E00", "#CC79A7", "#4B0F78", "#699600", "#F04B5A"],
  dark: ["#56B4E9", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#7B7BF0", "#4B870F", "#FF5A69"],
} as const;

/** The demo's and the usual channels, each on its own colour for good (the palette's order). */
const KNOWN_CHANNELS = ["facebook", "google", "tiktok", "pinterest", "snapchat", "linkedin", "email", "organic"];

/** "Other" (the smallest channels together) is grey in both schemes, and nothing else is. */
const OTHER_COLOR = { light: "#6B7280", dark: "#94A3B8" } as const;

/** The store's own figure drawn alone: the tiles' sparklines and the top products' bars. */
export const STORE_COLOR = { light: "#4F46E5", dark: "#A5B4FC" } as const;

/** The lines over the channels: each comparison and the target, told apart by colour as well as dash. */
export const LINE_COLORS = {
  light: { previous: "#1E293B", yearEarlier: "#B40078", target: "#69000F" },
  dark: { previous: "#E2E8F0", yearEarlier: "#5AF0F0", target: "#FFD2B4" },
} as const;

export type ColorScheme = keyof typeof CHANNEL_PALETTE;

/** At most this many series on the time chart: the five largest channels, and the rest as "Other". */
export const MAX_CHANNEL_SERIES = 6;
export const OTHER_CHANNEL = "Other";
const SLOTS = CHANNEL_PALETTE.light.length;

const hash = (text: string) => [...text].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 1_000_003, 7);

/**
 * Each channel's palette slot: a known channel its own; another channel (sorted by name) the first
 * slot from its name's hash that no other channel of `channels` holds. Beyond the palette's eight
 * in one view, a channel has none (undefined): it is drawn and listed as part of "Other".
 */
function slotsOf(channels: readonly string[]): Map<string, number | undefined> {
  const slots = new Map<string, number | undefined>();
  const taken = new Set<number>();
  for (const channel of channels) {
    const known = KNOWN_CHANNELS.indexOf(channel.toLowerCase());
    if (known >= 0) {
      slots.set(channel, known);
      taken.add(known);
    }
  }
  for (const channel of [...new Set(channels)].filter((candidate) => !slots.has(candidate)).sort()) {
    const start = hash(channel.toLowerCase()) % SLOTS;
    const free = Array.from({ length: SLOTS }, (_, step) => (start + step) % SLOTS).find((slot) => !taken.has(slot));
    slots.set(channel, free);
    if (free !== undefined) taken.add(free);
  }
  return slots;
}

/** The colour of each channel of a view (`channels`: every channel it names), and Other's grey for a channel without one. */
export function channelColors(channels: readonly string[], scheme: ColorScheme): (channel: string) => string {
  const slots = slotsOf(channels);
  return (channel) => {
    const slot = slots.get(channel);
    return slot === undefined ? OTHER_COLOR[scheme] : CHANNEL_PALETTE[scheme][slot]!;
  };
}

export const otherColor = (scheme: ColorScheme) => OTHER_COLOR[scheme];

/** Every colour a chart may draw with, each role once, for the contrast and distance checks. */
export const seriesColors: Record<ColorScheme, readonly string[]> = {
  light: [...CHANNEL_PALETTE.light, OTHER_COLOR.light, STORE_COLOR.light, ...Object.values(LINE_COLORS.light)],
  dark: [...CHANNEL_PALETTE.dark, OTHER_COLOR.dark, STORE_COLOR.dark, ...Object.values(LINE_COLORS.dark)],
};
