import { describe, expect, it } from "vitest";
import { channelColor, MAX_CHANNEL_SERIES, seriesColors } from "./chart-colors";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => {
    const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};

describe("chart colours", () => {
  // The cards: white in the light scheme, slate-900 in the dark one.
  it.each([
    ["light", "#ffffff"],
    ["dark", "#0f172a"],
  ] as const)("every series keeps 3:1 against the %s card", (scheme, background) => {
    for (const color of seriesColors[scheme]) expect(contrast(color, background), color).toBeGreaterThanOrEqual(3);
  });

  it("gives the channels six distinct colours in each scheme, Other apart from them", () => {
    for (const scheme of ["light", "dark"] as const) {
      const colors = Array.from({ length: MAX_CHANNEL_SERIES }, (_, rank) => channelColor(rank, scheme));
      expect(new Set(colors).size).toBe(6);
      expect(colors).not.toContain(channelColor(0, scheme, true));
    }
  });
});
