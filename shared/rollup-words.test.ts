import { describe, expect, it } from "vitest";
import { rollupWords } from "./rollup-words";

const held = { enabled: true, filling: false, percent: 100, heldFrom: "2025-11-01", heldTo: "2026-11-25", asOf: "2026-11-29T15:42:00Z" };

describe("the store overview's line on the rollups", () => {
  it("names the months kept and the time they were read, in the store's zone", () => {
    expect(rollupWords(held, "America/New_York")).toBe("Figures kept for Nov 2025 – Nov 2026, as of Nov 29, 2026, 10:42 AM EST");
  });

  it("says how far a warm-up has come while it runs", () => {
    expect(rollupWords({ ...held, filling: true, percent: 61 }, "UTC")).toBe("Preparing the last 13 months: 61 %");
  });

  it("says nothing when the rollups are off or hold nothing", () => {
    expect(rollupWords({ ...held, enabled: false }, "UTC")).toBeNull();
    expect(rollupWords({ ...held, heldFrom: null, heldTo: null, asOf: null }, "UTC")).toBeNull();
  });
});
