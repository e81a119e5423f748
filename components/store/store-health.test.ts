import { describe, expect, it } from "vitest";
import { catalogHealth } from "./store-health";

const NOW = Date.parse("2026-11-29T09:00:00Z");

describe("catalogHealth", () => {
  it("flags an active catalog whose last sync is over a week old, and not a recent one", () => {
    const [old] = catalogHealth([{ provider: "google_merchant_center", status: "active", lastSyncedAt: "2025-11-20T09:00:00Z" }], NOW);
    expect(old!.tone).toBe("warn");
    expect(old!.line).toMatch(/not synchronized for over a week \(its last sync: last year\)/);
    const [recent] = catalogHealth([{ provider: "google_merchant_center", status: "active", lastSyncedAt: "2026-11-28T09:00:00Z" }], NOW);
    expect(recent!.tone).toBe("good");
  });
});
