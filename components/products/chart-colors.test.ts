import { describe, expect, it } from "vitest";
import { channelColors, LINE_COLORS, MAX_CHANNEL_SERIES, otherColor, seriesColors, STORE_COLOR } from "./chart-colors";

function linear(hex: string): [number, number, number] {
  return [1, 3, 5].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = linear(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};

/** CIELAB (D65) of an sRGB colour. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = linear(hex);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** ΔE (CIE76): the distance in CIELAB. */
const deltaE = (a: string, b: string) => Math.hypot(...lab(a).map((value, index) => value - lab(b)[index]!));

const CARDS = [
  ["light", "#ffffff"],
  ["dark", "#0f172a"],
] as const;

describe("chart colours", () => {
  it("computes ΔE as CIE76 does: the light palette's two blues of issue 35 were 8.3 apart", () => {
    expect(deltaE("#0072B2", "#2F85C0")).toBeCloseTo(8.3, 1);
    expect(deltaE("#000000", "#ffffff")).toBeCloseTo(100, 0);
  });

  it.each(CARDS)("every series keeps 3:1 against the %s card", (scheme, background) => {
    for (const color of seriesColors[scheme]) expect(contrast(color, background), color).toBeGreaterThanOrEqual(3);
  });

  it.each(CARDS)("every two series colours of the %s scheme, sparklines, lines and Other included, are ΔE 20 or more apart", (scheme) => {
    const colors = seriesColors[scheme];
    expect(colors).toContain(STORE_COLOR[scheme]);
    expect(colors).toEqual(expect.arrayContaining(Object.values(LINE_COLORS[scheme])));
    const close: string[] = [];
    for (const [index, a] of colors.entries())
      for (const b of colors.slice(index + 1)) if (deltaE(a, b) < 20) close.push(`${a} ${b} ${deltaE(a, b).toFixed(1)}`);
    expect(close).toEqual([]);
  });

  it("gives a channel the same colour whatever its rank and whichever channels the view holds", () => {
    for (const scheme of ["light", "dark"] as const) {
      const wide = channelColors(["facebook", "google", "tiktok", "pinterest", "snapchat", "linkedin", "email", "organic"], scheme);
      const narrow = channelColors(["linkedin", "google"], scheme);
      expect(narrow("linkedin")).toBe(wide("linkedin"));
      expect(narrow("google")).toBe(wide("google"));
      const reordered = channelColors(["organic", "email", "facebook"], scheme);
      expect(reordered("email")).toBe(wide("email"));
    }
  });

  it("gives eight channels eight colours, none of them Other's grey; only beyond eight is a channel grey", () => {
    for (const scheme of ["light", "dark"] as const) {
      const channels = ["facebook", "google", "tiktok", "pinterest", "snapchat", "linkedin", "email", "organic"];
      const colorOf = channelColors(channels, scheme);
      const colors = channels.map(colorOf);
      expect(new Set(colors).size).toBe(8);
      expect(colors).not.toContain(otherColor(scheme));
      // Unknown channels take free colours, stable for the same set.
      const mixed = channelColors(["facebook", "bing", "reddit"], scheme);
      expect(new Set(["facebook", "bing", "reddit"].map(mixed)).size).toBe(3);
      expect(["bing", "reddit"].map(mixed)).not.toContain(otherColor(scheme));
      expect(channelColors([...channels, "bing"], scheme)("bing")).toBe(otherColor(scheme));
    }
    expect(MAX_CHANNEL_SERIES).toBe(6);
  });
});
