import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oddNumber, oddString } from "@/test/zod-arbitrary";
import { formatCompact, formatCurrency, formatDate, formatDateTime, formatMonth, formatNumber, formatPercent } from "./format";
import { cloneFormSchema } from "@/shared/schemas/campaign-clone";
import { enumLabel, interpretCurrency, interpretTimeZone, quoteValue, statusTone, storeTypeTone } from "./store-locale";
import { epochMsToZonedLocal, isValidTimeZone, zonedLocalToEpochMs } from "./time-zone";

describe("interpretTimeZone", () => {
  it("uses an IANA name the runtime knows as it is, without a note", () => {
    expect(interpretTimeZone("America/New_York")).toEqual({
      raw: "America/New_York",
      zone: "America/New_York",
      label: "America/New_York",
      recovered: false,
      certain: true,
    });
  });

  it("recovers an IANA name inside a Shopify-style value, and says so", () => {
    const reading = interpretTimeZone("(GMT-05:00) America/New_York");
    expect(reading).toMatchObject({ zone: "America/New_York", recovered: true, certain: true });
    expect(reading.fallbackNote).toBe("Times shown in America/New_York, read from the store's time zone '(GMT-05:00) America/New_York'.");
  });

  it("reads the GMT offset of a Shopify display name as a fixed offset, which it cannot be sure of", () => {
    const reading = interpretTimeZone("(GMT-05:00) Eastern Time (US & Canada)");
    expect(reading).toMatchObject({ zone: "-05:00", label: "UTC\u221205:00", recovered: true, certain: false });
    expect(reading.fallbackNote).toContain("daylight saving time is not applied");
    expect(interpretTimeZone("(GMT+05:30) Chennai, Kolkata, Mumbai, New Delhi").zone).toBe("+05:30");
    expect(interpretTimeZone("(GMT+00:00) London").zone).toBe("UTC");
  });

  it("takes a value that is only an offset as exactly that zone", () => {
    expect(interpretTimeZone("GMT+05:45")).toMatchObject({ zone: "+05:45", certain: true, recovered: false });
    expect(interpretTimeZone("UTC-3")).toMatchObject({ zone: "-03:00", certain: true });
    expect(interpretTimeZone("+09:00").fallbackNote).toBeUndefined();
  });

  it("falls back to UTC for a zone it cannot read, a zone newer than the runtime's database, or none", () => {
    for (const raw of ["Eastern Time (US & Canada)", "America/Atlantis_New", "GMT+99:00"]) {
      const reading = interpretTimeZone(raw);
      expect(reading, raw).toMatchObject({ zone: "UTC", label: "UTC", recovered: false, certain: false });
      expect(reading.fallbackNote).toBe(`Times shown in UTC: the store's time zone '${raw}' is not recognised.`);
    }
    expect(interpretTimeZone(null).fallbackNote).toBe("Times shown in UTC: the store gives no time zone.");
    expect(interpretTimeZone("   ").zone).toBe("UTC");
  });

  it("quotes long and multi-line values shortened, on one line", () => {
    expect(quoteValue(`a\n${"b".repeat(300)}`)).toHaveLength(82);
    expect(interpretTimeZone("x".repeat(300)).fallbackNote!.length).toBeLessThanOrEqual(150);
  });

  it("places wall-clock times in a fixed offset, both ways", () => {
    const zone = interpretTimeZone("(GMT+05:30) Chennai").zone;
    expect(zonedLocalToEpochMs("2026-01-15T09:30", zone)).toBe(Date.parse("2026-01-15T04:00:00Z"));
    expect(epochMsToZonedLocal(Date.parse("2026-01-15T04:00:00Z"), zone)).toBe("2026-01-15T09:30");
    expect(formatDateTime(Date.parse("2026-01-15T04:00:00Z"), zone)).toBe(
      formatDateTime(Date.parse("2026-01-15T09:30:00Z"), "UTC").replace(/UTC$/, "UTC+05:30"),
    );
  });

  it("refuses to place typed times in a zone it does not know, but shows instants in UTC", () => {
    expect(zonedLocalToEpochMs("2026-01-15T09:30", "Eastern Time (US & Canada)")).toBeNull();
    const instant = Date.parse("2026-01-15T04:00:00Z");
    expect(formatDateTime(instant, "Eastern Time (US & Canada)")).toBe(formatDateTime(instant, "UTC"));
  });
});

describe("interpretCurrency and formatCurrency", () => {
  it("formats a code Intl knows in its own way", () => {
    expect(interpretCurrency("JPY")).toMatchObject({ code: "JPY", decimals: 0, suffix: "" });
    expect(interpretCurrency("usd")).toMatchObject({ code: "USD", decimals: 2 });
    expect(interpretCurrency("EUR").fallbackNote).toBeUndefined();
  });

  it("shows a code Intl rejects with two decimals and the raw value, and says so", () => {
    const reading = interpretCurrency("USDT");
    expect(reading).toMatchObject({ code: null, decimals: 2, suffix: "USDT" });
    expect(reading.fallbackNote).toBe("Amounts shown with two decimals: the currency 'USDT' is not recognised.");
    expect(formatCurrency(1234.5, "USDT")).toMatch(/^1,234\.50 USDT$/);
    expect(formatCurrency(-3, "a very long currency name")).toMatch(/^\u22123\.00 a very long…$/);
  });

  it("shows amounts without a currency with two decimals and no code", () => {
    expect(interpretCurrency(null)).toMatchObject({ raw: null, code: null, decimals: 2, suffix: "" });
    expect(interpretCurrency(null).fallbackNote).toBe("Amounts shown with two decimals: the store gives no currency.");
    expect(formatCurrency(1e12, null)).toBe("1,000,000,000,000.00");
    expect(formatCurrency(0, "")).toBe("0.00");
  });
});

describe("enum-like values", () => {
  it("shows unknown values as they are, in the neutral style", () => {
    expect(enumLabel("PENDING_REVIEW")).toBe("PENDING_REVIEW");
    expect(enumLabel(" ")).toBe("(empty)");
    expect(statusTone("ACTIVE")).toBe("good");
    expect(statusTone("PENDING_REVIEW")).toBe("neutral");
    expect(storeTypeTone("shopify")).toBe("info");
    expect(storeTypeTone("headless-commerce-v2")).toBe("neutral");
  });
});

describe("on any value the contract allows (property tests)", () => {
  const anyZone = fc.oneof(oddString, fc.constantFrom("America/New_York", "(GMT+05:30) Chennai", "UTC+14", "Etc/GMT+12"));

  it("reads any time zone as a zone every date function can use, with a note unless it was used as sent", () => {
    fc.assert(
      fc.property(anyZone, fc.integer({ min: 0, max: 4_102_444_800_000 }), (raw, epochMs) => {
        const reading = interpretTimeZone(raw);
        expect(isValidTimeZone(reading.zone)).toBe(true);
        // Used as sent (a known name, or only an offset), or else said so.
        expect(reading.fallbackNote === undefined).toBe(reading.certain && !reading.recovered);
        const local = epochMsToZonedLocal(epochMs, reading.zone);
        expect(zonedLocalToEpochMs(local, reading.zone)).not.toBeNull();
        for (const format of [formatDateTime, formatDate, formatMonth]) expect(format(epochMs, raw)).not.toBe("");
      }),
    );
  });

  it("formats any amount in any currency, or none, without throwing", () => {
    fc.assert(
      fc.property(oddNumber, fc.option(oddString, { nil: null }), (amount, currency) => {
        const text = formatCurrency(amount, currency);
        expect(text.length).toBeGreaterThan(0);
        const reading = interpretCurrency(currency);
        expect(reading.code === null).toBe(reading.fallbackNote !== undefined);
        expect(formatNumber(amount)).not.toBe("");
        expect(formatCompact(amount)).not.toBe("");
        expect(formatPercent(amount)).not.toBe("");
      }),
    );
  });

  it("shows text that is not a date as it is", () => {
    fc.assert(
      fc.property(oddString, anyZone, (value, zone) => {
        expect(typeof formatDateTime(value, zone)).toBe("string");
      }),
    );
  });

  it("refuses to send clone times it cannot place unless the user confirmed the zone", () => {
    fc.assert(
      fc.property(anyZone, fc.boolean(), oddString, (raw, zoneConfirmed, name) => {
        const reading = interpretTimeZone(raw);
        const values = {
          adAccountId: "512345678",
          sourceCampaignGroupId: "612345678",
          name,
          startDelivering: false,
          confirmation: "",
          start: "2026-07-01T09:00",
          end: "",
          budget: "75",
          currencyCode: "USD",
          zoneConfirmed,
        };
        const parsed = cloneFormSchema(reading).safeParse(values);
        const zoneIssue = !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === "zoneConfirmed");
        expect(zoneIssue).toBe(!reading.certain && !zoneConfirmed);
        if (parsed.success) expect(parsed.data.payload.startTime).toBe(zonedLocalToEpochMs("2026-07-01T09:00", reading.zone));
      }),
    );
  });
});

describe("quoted values", () => {
  it("never cut an emoji in half", () => {
    const quoted = quoteValue("🧪".repeat(100), 10);
    expect(Array.from(quoted)).toHaveLength(12);
    expect(quoted).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(interpretCurrency("💰".repeat(20)).suffix).toBe(`${"💰".repeat(11)}…`);
  });
});
