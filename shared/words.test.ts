import { describe, expect, it } from "vitest";
import { addressWords, epochOf, fieldLabel, statusWords } from "./words";

describe("words for upstream names", () => {
  it("reads field names as labels", () => {
    expect(fieldLabel("productCount")).toBe("Product count");
    expect(fieldLabel("lastSyncedAt")).toBe("Last synced at");
    expect(fieldLabel("feedUrl")).toBe("Feed URL");
    expect(fieldLabel("errorMessage")).toBe("Error message");
    expect(fieldLabel("google_merchant_center")).toBe("Google merchant center");
    expect(fieldLabel("adAccountId")).toBe("Ad account ID");
    expect(fieldLabel("")).toBe("");
  });

  it("reads status values as words, and leaves sentences alone", () => {
    expect(statusWords("campaign_paused")).toBe("Campaign paused");
    expect(statusWords("ACTIVE")).toBe("Active");
    expect(statusWords("Paused by the budget rule.")).toBe("Paused by the budget rule.");
  });

  it("takes numbers under time-like keys as instants, in seconds or milliseconds", () => {
    expect(epochOf("startTime", 1795528800000)).toBe(1795528800000);
    expect(epochOf("createdAt", 1795528800)).toBe(1795528800000);
    expect(epochOf("budget", 1795528800000)).toBeUndefined();
    expect(epochOf("endTime", "soon")).toBeUndefined();
  });

  it("names loopback addresses 'this computer' and unwraps mapped IPv4", () => {
    for (const address of ["::1", "::ffff:127.0.0.1", "127.0.0.1", "127.0.1.1"]) expect(addressWords(address)).toBe("this computer");
    expect(addressWords("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressWords("2001:db8::1")).toBe("2001:db8::1");
    expect(addressWords("")).toBe("Unknown address");
  });
});
