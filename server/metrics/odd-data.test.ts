import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { currencyDecimals } from "@/shared/format";
import { isoDateSchema } from "@/shared/schemas/common";
import { productMetricRowSchema } from "@/shared/schemas/product-metrics";
import { productMetricsViewSchema, type ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { arbitraryOf, isoDate, oddString } from "@/test/zod-arbitrary";
import { BreakdownAggregator, isMetricRow, ProductMetricsAggregator, roundMoney, type MetricRow } from "./aggregate";
import { csvField } from "./csv";
import { manifestBase } from "./manifest";
import { exportManifestSchema } from "@/shared/schemas/export-manifest";
import { presets, resolvePreset } from "@/shared/metrics/date-range";
import { productsCsv } from "./export";
import { bucketSeries, channelShares, productRows, relativeChange, tablePage, topProducts } from "@/shared/metrics/presentation";
import { sortColumns } from "@/shared/metrics/view-state";

/** Property tests: contract-valid data as odd as the contract allows, generated from the schemas. */

const rowsArbitrary = arbitraryOf(z.array(productMetricRowSchema), new Map([[isoDateSchema, isoDate]])).map((rows) =>
  z.array(productMetricRowSchema).parse(rows),
);
const viewArbitrary = arbitraryOf(productMetricsViewSchema, new Map(), 120).map((view) => productMetricsViewSchema.parse(view));

const sum = <T>(items: readonly T[], pick: (item: T) => number) => items.reduce((total, item) => total + pick(item), 0);
/** Sums taken in another order agree up to float rounding. */
const close = (a: number, b: number, scale: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-6 * Math.max(1, scale));

describe("the server's aggregation, on any rows the contract allows", () => {
  it("never throws, drops no channel or product, and its totals equal a direct sum", () => {
    fc.assert(
      fc.property(rowsArbitrary, (rows) => {
        const aggregator = new ProductMetricsAggregator();
        for (const row of rows) {
          expect(isMetricRow(row)).toBe(true);
          aggregator.add(row as MetricRow);
        }
        const decimals = currencyDecimals(aggregator.currency);
        const result = aggregator.result(decimals);
        expect(result.totals.revenue).toBe(
          roundMoney(
            sum(rows, (row) => row.revenue),
            decimals,
          ),
        );
        expect(result.totals.orders).toBe(sum(rows, (row) => row.orders));
        expect(result.totals.units).toBe(sum(rows, (row) => row.units));
        expect(result.totals.rows).toBe(rows.length);
        expect(new Set(result.channels.map((channel) => channel.channel))).toEqual(new Set(rows.map((row) => row.channel)));
        expect(result.products).toHaveLength(new Set(rows.map((row) => row.product_id)).size);
        for (const channel of result.channels) {
          expect(channel.orders).toBe(
            sum(
              rows.filter((row) => row.channel === channel.channel),
              (row) => row.orders,
            ),
          );
        }
        const view = { startDate: "2026-01-01", endDate: "2026-01-31", currency: aggregator.currency, ...result };
        expect(productMetricsViewSchema.safeParse(view).success).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("breaks one product down by channel and ad without losing a row", () => {
    fc.assert(
      fc.property(rowsArbitrary, (rows) => {
        const breakdown = new BreakdownAggregator();
        for (const row of rows) breakdown.add(row as MetricRow);
        const result = breakdown.result("p", 2);
        expect(sum(result.rows, (row) => row.orders)).toBeCloseTo(
          sum(rows, (row) => row.orders),
          0,
        );
        expect(result.rows.length).toBeLessThanOrEqual(rows.length);
      }),
      { numRuns: 40 },
    );
  });
});

describe("the page's view models, on any view the route may answer", () => {
  it("table, charts and shares never throw, and what they show adds up to the totals", () => {
    fc.assert(
      fc.property(
        viewArbitrary,
        oddString,
        fc.constantFrom(...sortColumns),
        fc.constantFrom("asc" as const, "desc" as const),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom("day" as const, "week" as const, "month" as const),
        (view: ProductMetricsView, q, sort, direction, page, granularity) => {
          const rows = productRows(view.products, view.totals.revenue);
          expect(rows).toHaveLength(view.products.length);
          const table = tablePage(rows, { q, sort, direction, page, pageSize: 25 });
          expect(table.rows.length).toBeLessThanOrEqual(25);
          expect(tablePage(rows, { q: "", sort, direction, page: 1, pageSize: 25 }).matching).toBe(rows.length);

          const scale = sum(view.products, (product) => Math.abs(product.revenue));
          const bars = topProducts(view.products, 8);
          close(
            sum(bars, (bar) => bar.revenue),
            sum(view.products, (product) => product.revenue),
            scale,
          );

          const { points, channels } = bucketSeries(view.series, granularity, "revenue");
          expect(new Set(channels)).toEqual(new Set(view.series.map((point) => point.channel)));
          for (const channel of channels) {
            const inSeries = view.series.filter((point) => point.channel === channel);
            close(
              sum(points, (point) => point.values[channel]!),
              sum(inSeries, (point) => point.revenue),
              sum(inSeries, (point) => Math.abs(point.revenue)),
            );
          }
          expect(channelShares(view.channels)).toHaveLength(view.channels.length);
          relativeChange(view.totals.revenue, view.comparison?.totals.revenue);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("CSV files and date presets, on any store profile", () => {
  it("start the file with its header and describe it in a manifest, whatever the zone, currency and filters", () => {
    fc.assert(
      fc.property(oddString, fc.option(oddString, { nil: null }), oddString, viewArbitrary, (timeZone, currency, storeUrl, view) => {
        const base = manifestBase(
          { storeUrl, timeZone, currency, kind: "products", filters: { startDate: "2026-01-01", endDate: "2026-01-31", channel: "x" } },
          { endpoint: "/api/stores/s/product-metrics/export", parameters: { kind: "products" } },
          "1.0.0",
        );
        expect(exportManifestSchema.parse({ ...base, sha256: "0".repeat(64), row_count: 0 }).range.days).toBe(31);
        const csv = productsCsv(view.products, view.totals.revenue, { q: "", sort: "revenue", direction: "desc" }, currency);
        expect(csv.startsWith("Product,SKU,Product ID,Orders,Units,Revenue")).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("name the odd store's zone and currency in the manifest as the page does, with its notes", () => {
    const base = manifestBase(
      {
        storeUrl: "odd-data-lab.example",
        timeZone: "Eastern Time (US & Canada)",
        currency: "USDT",
        kind: "rows",
        filters: { startDate: "2026-01-01", endDate: "2026-01-31" },
      },
      { endpoint: "/e", parameters: {} },
      "1.0.0",
    );
    expect(base.time_zone).toEqual({
      store_value: "Eastern Time (US & Canada)",
      used: "UTC",
      note: "Times shown in UTC: the store's time zone 'Eastern Time (US & Canada)' is not recognised.",
    });
    expect(base.currency).toEqual({
      store_value: "USDT",
      used: "USDT",
      note: "Amounts shown with two decimals: the currency 'USDT' is not recognised.",
    });
    expect(base.range).toMatchObject({
      utc_start: "2026-01-01T00:00:00.000Z",
      utc_end_exclusive: "2026-02-01T00:00:00.000Z",
      irregular_days: [],
    });
  });

  it("defuses any text a spreadsheet would run", () => {
    fc.assert(
      fc.property(oddString, (text) => {
        const field = csvField(text);
        expect(field.replace(/^"/, "")).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });

  it("resolve every preset to real dates in order, in any zone the upstream may send", () => {
    fc.assert(
      fc.property(
        oddString,
        fc.constantFrom(...presets),
        fc.date({ min: new Date("1971-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }),
        (timeZone, preset, now) => {
          const range = resolvePreset(preset, timeZone, now);
          expect(isoDateSchema.safeParse(range.startDate).success).toBe(true);
          expect(range.startDate <= range.endDate).toBe(true);
        },
      ),
    );
  });
});
