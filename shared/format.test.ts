import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MINUS,
  formatCompact,
  formatCountry,
  formatCurrency,
  formatDateTime,
  formatYourDateTime,
  formatNumber,
  formatPercent,
  formatRelative,
} from "./format";

const finite = fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true });
const formatted = (value: number) => [
  formatNumber(value),
  formatNumber(value, 2),
  formatPercent(value),
  formatPercent(value, 1, true),
  formatCompact(value),
  formatCurrency(value, "USD"),
  formatCurrency(value, "JPY", true),
  formatCurrency(value, "EUR"),
  formatCurrency(value, "not a code"),
];

/** Reads a compact value back ("22.5K" → 22500). */
function readCompact(text: string): number {
  const match = /^(\u2212?)([\d.,]+)([KMBT]?)$/.exec(text);
  if (!match) throw new Error(`not a compact value: ${text}`);
  const scale = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[match[3] as "" | "K"];
  return (match[1] ? -1 : 1) * Number((match[2] ?? "").replace(/,/g, "")) * scale;
}

describe("one number formatter", () => {
  it("writes every negative number with a true minus, never a hyphen", () => {
    fc.assert(
      fc.property(finite, (value) => {
        for (const text of formatted(value)) expect(text).not.toMatch(/-/);
      }),
    );
    expect(formatPercent(-0.189)).toBe(`${MINUS}18.9%`);
    expect(formatCurrency(-3071.9, "USD")).toBe(`${MINUS}$3,071.90`);
  });

  it("never shows a signed zero: a value that rounds to zero has no sign", () => {
    fc.assert(
      fc.property(fc.double({ min: -0.000_49, max: 0.000_49, noNaN: true }), (value) => {
        expect(formatPercent(value)).toBe("0.0%");
        expect(formatPercent(value, 1, true)).toBe("0.0%");
        expect(formatNumber(value * 1000)).toBe("0");
      }),
    );
    expect(formatPercent(-0)).toBe("0.0%");
  });

  it("signs a change that stays above or below zero", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 100, noNaN: true }), (value) => {
        expect(formatPercent(value, 1, true)).toMatch(/^\+/);
        expect(formatPercent(-value, 1, true)).toMatch(new RegExp(`^${MINUS}`));
        expect(formatCurrency(-value - 0.01, "USD", true).startsWith(MINUS)).toBe(true);
      }),
    );
  });

  it("gives one measure the same decimals whatever the value", () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        const decimals = (text: string) => /[.](\d+)/.exec(text)?.[1]?.length ?? 0;
        expect(decimals(formatPercent(a))).toBe(decimals(formatPercent(b)));
        expect(decimals(formatNumber(a, 2))).toBe(decimals(formatNumber(b, 2)));
        expect(decimals(formatCurrency(a, "USD"))).toBe(2);
        expect(decimals(formatCurrency(a, "JPY"))).toBe(0);
      }),
    );
    expect([formatPercent(0.24), formatPercent(0.258)]).toEqual(["24.0%", "25.8%"]);
    expect([formatNumber(1.2, 2), formatNumber(1.22, 2)]).toEqual(["1.20", "1.22"]);
  });

  it("rounds compact values to within half a unit of their third significant digit", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e14, max: 1e14, noNaN: true }), (value) => {
        const read = readCompact(formatCompact(value));
        const magnitude = Math.abs(value) < 1 ? 1 : 10 ** (Math.floor(Math.log10(Math.abs(value))) - 2);
        expect(Math.abs(read - value)).toBeLessThanOrEqual(magnitude / 2 + Math.abs(value) * 1e-12 + 0.005);
      }),
    );
    expect(formatCompact(22_500)).toBe("22.5K");
    expect(formatCompact(-1_234_567)).toBe(`${MINUS}1.23M`);
  });

  it("names a country with its code beside, and keeps what it cannot name", () => {
    expect(formatCountry("DE")).toBe("Germany (DE)");
    expect(formatCountry("us")).toBe("United States (US)");
    expect(formatCountry("QQ")).toBe("QQ");
    fc.assert(
      fc.property(fc.string(), (code) => {
        const text = formatCountry(code);
        expect(text === code || text.endsWith(`(${code.trim().toUpperCase()})`)).toBe(true);
      }),
    );
  });
});

describe("formatRelative", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  it("says how long ago in the largest whole unit", () => {
    expect(formatRelative("2026-03-10T09:00:00Z", now)).toBe("3 hours ago");
    expect(formatRelative(now - 40_000, now)).toBe("40 seconds ago");
    expect(formatRelative("2026-03-08T11:00:00Z", now)).toBe("2 days ago");
    expect(formatRelative("2025-11-01T00:00:00Z", now)).toBe("4 months ago");
    expect(formatRelative("not a date", now)).toBe("not a date");
  });
});

describe("formatDateTime and formatYourDateTime", () => {
  it("names the store's zone of the time it shows, a fixed offset by its own offset", () => {
    expect(formatDateTime("2026-11-27T09:04:00Z", "UTC")).toMatch(/Nov 27, 2026.*9:04.*UTC$/);
    expect(formatDateTime("2026-11-27T09:04:00Z", "Asia/Tokyo")).toMatch(/Nov 27, 2026.*6:04.*(GMT\+9|JST)$/);
    expect(formatDateTime("2026-11-27T09:04:00Z", "+05:30")).toMatch(/Nov 27, 2026.*2:34.*UTC\+05:30$/);
    expect(formatDateTime("2026-11-27T09:04:00Z", null)).toMatch(/UTC$/);
  });
  it("says a person's own time is theirs, with its zone", () => {
    expect(formatYourDateTime("2026-11-27T09:04:00Z")).toMatch(/^Nov 27, 2026, .+ \S+ \(your time\)$/);
    expect(formatYourDateTime("not a date")).toBe("not a date");
  });
});
