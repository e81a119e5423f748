import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/shared/schemas/error";
import { dimensionValuesSchema, productMetricRowSchema, type DimensionValues } from "@/shared/schemas/product-metrics";
import { ALL_CHANNELS } from "./catalog";
import { startDemoUpstream, type DemoUpstream } from "./server";
import { call, isSubsequence, KEY, products, sameRows, STORE, storePath, type Row } from "./test-helpers";

let upstream: DemoUpstream;
const RANGE = { startDate: "2025-03-01", endDate: "2025-03-10" };
let all: Row[];
let allFirstTouch: Row[];
let dims: DimensionValues;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  all = await products(upstream, RANGE);
  allFirstTouch = await products(upstream, { ...RANGE, dimension_source: "first_touch" });
  dims = dimensionValuesSchema.parse((await call(upstream, storePath("ad-metrics", STORE.nwUs, "/dimensions"), { query: RANGE })).body);
});
afterAll(() => upstream.close());

const productsPath = storePath("ad-metrics", STORE.nwUs, "/products");

describe("GET /ad-metrics/{storeUrl}/products", () => {
  it("returns realistic rows that match the shared row schema, in date and time order", () => {
    expect(all.length).toBeGreaterThan(600);
    for (const row of all) {
      productMetricRowSchema.parse(row);
      expect(row.shop).toBe(STORE.nwUs);
      expect(row.currency).toBe("USD");
      expect(row.date >= RANGE.startDate && row.date <= RANGE.endDate).toBe(true);
      expect(row.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
      expect(row.units).toBeGreaterThanOrEqual(row.orders);
      expect(row.order_count).toBe(row.orders);
      for (const money of [row.revenue, row.avg_price, row.revenue_per_order]) expect(String(money)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(row.ad_id === null).toBe(row.channel === "email" || row.channel === "organic");
    }
    const keys = all.map((row) => `${row.date} ${row.time}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(all.map((row) => row.date)).size).toBe(10);
  });

  it("streams the array (chunked, no content-length)", async () => {
    const res = await fetch(`${upstream.baseUrl}${productsPath}?startDate=2025-01-01&endDate=2025-01-31`, {
      headers: { "x-api-key": KEY.admin },
    });
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect(res.headers.get("content-length")).toBeNull();
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it("writes zero-decimal money for the JPY store", async () => {
    const rows = await products(upstream, { startDate: "2025-05-01", endDate: "2025-05-03" }, KEY.kumoJp, STORE.kumoJp);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.currency).toBe("JPY");
      for (const field of ["revenue", "avg_price", "revenue_per_order"] as const) expect(Number.isInteger(row[field])).toBe(true);
    }
  });

  it("returns an empty array before the store was created and after the data window", async () => {
    expect(await products(upstream, { startDate: "2020-01-01", endDate: "2023-03-13" })).toEqual([]);
    expect(await products(upstream, { startDate: "2031-01-01", endDate: "2031-12-31" })).toEqual([]);
    const firstDay = await products(upstream, { startDate: "2020-01-01", endDate: "2023-03-14" });
    expect(new Set(firstDay.map((row) => row.date))).toEqual(new Set(["2023-03-14"]));
  });

  it.each([
    ["a date not written YYYY-MM-DD", { startDate: "03/01/2025", endDate: "2025-03-10" }, "startDate"],
    ["a date that does not exist", { startDate: "2025-02-30", endDate: "2025-03-10" }, "startDate"],
    ["startDate after endDate", { startDate: "2025-03-10", endDate: "2025-03-01" }, "endDate"],
    ["a missing endDate", { startDate: "2025-03-10" }, "endDate"],
    ["an unknown dimension_source", { ...RANGE, dimension_source: "last_touch" }, "dimension_source"],
    ["an empty item in a comma list", { ...RANGE, filterCountry: "US,,CA" }, "filterCountry"],
    ["an unknown parameter", { ...RANGE, country: "US" }, "country"],
  ])("answers 400 with issue details for %s", async (_label, query, path) => {
    const res = await call(upstream, productsPath, { query });
    expect(res.status).toBe(400);
    const error = apiErrorSchema.parse(res.body);
    expect(error.error).toMatch(/^the query is invalid/);
    expect((error.details as { issues: Array<{ path: string }> }).issues.map((issue) => issue.path)).toContain(path);
  });

  it("answers 400 when a parameter is given twice", async () => {
    const res = await call(upstream, `${productsPath}?startDate=2025-03-01&endDate=2025-03-02&channel=google&channel=facebook`);
    expect(res.status).toBe(400);
    expect(apiErrorSchema.parse(res.body).error).toMatch(/channel is given more than once/);
  });
});

describe("filters are honoured exactly", () => {
  it("channel: every row has that channel, and the channels together give back every row", async () => {
    const parts = await Promise.all(ALL_CHANNELS.map((channel) => products(upstream, { ...RANGE, channel })));
    parts.forEach((rows, index) => {
      expect(rows.every((row) => row.channel === ALL_CHANNELS[index])).toBe(true);
      expect(isSubsequence(rows, all)).toBe(true);
    });
    expect(sameRows(parts.flat(), all)).toBe(true);
  });

  it("adId: exactly the rows of that ad", async () => {
    const adId = all.find((row) => row.channel === "facebook")?.ad_id as string;
    const rows = await products(upstream, { ...RANGE, adId });
    expect(rows).toEqual(all.filter((row) => row.ad_id === adId));
  });

  it("filterProductId: exactly the rows of the listed products", async () => {
    const ids = [...new Set(all.map((row) => row.product_id))].slice(0, 3);
    const rows = await products(upstream, { ...RANGE, filterProductId: ids.join(",") });
    expect(rows).toEqual(all.filter((row) => ids.includes(row.product_id)));
  });

  // Countries, devices, OS and browsers are not fields of a row: check that their values
  // partition the rows exactly, and that a comma list is the union of its items.
  it.each([
    ["filterCountry", "countries"],
    ["filterDeviceType", "deviceTypes"],
    ["filterOS", "os"],
    ["filterBrowser", "browsers"],
  ] as const)("%s: the values of %s partition the rows, and a comma list is their union", async (param, dimension) => {
    const values = dims[dimension];
    expect(values.length).toBeGreaterThan(1);
    const parts = await Promise.all(values.map((value) => products(upstream, { ...RANGE, [param]: value })));
    for (const part of parts) {
      expect(part.length).toBeGreaterThan(0);
      expect(isSubsequence(part, all)).toBe(true);
    }
    expect(sameRows(parts.flat(), all)).toBe(true);
    const pair = await products(upstream, { ...RANGE, [param]: `${values[0]},${values[1]}` });
    expect(sameRows(pair, [...(parts[0] ?? []), ...(parts[1] ?? [])])).toBe(true);
    expect(await products(upstream, { ...RANGE, [param]: "NoSuchValue" })).toEqual([]);
  });

  it("combines filters with AND", async () => {
    const mobileUs = await products(upstream, { ...RANGE, filterCountry: "US", filterDeviceType: "mobile" });
    const us = await products(upstream, { ...RANGE, filterCountry: "US" });
    const mobile = await products(upstream, { ...RANGE, filterDeviceType: "mobile" });
    const mobileText = new Set(mobile.map((row) => JSON.stringify(row)));
    const inBoth = us.filter((row) => mobileText.has(JSON.stringify(row)));
    expect(mobileUs.length).toBeGreaterThan(0);
    expect(sameRows(mobileUs, inBoth)).toBe(true);
  });
});

describe("dimension_source", () => {
  it("first_touch projects the first touch: same order lines, different channel/ad for some rows", () => {
    expect(allFirstTouch.length).toBe(all.length);
    const strip = (row: Row) => JSON.stringify({ ...row, channel: undefined, ad_id: undefined });
    expect(allFirstTouch.map(strip)).toEqual(all.map(strip));
    const changed = allFirstTouch.filter((row, index) => row.channel !== all[index]?.channel).length;
    expect(changed / all.length).toBeGreaterThan(0.15);
    expect(changed / all.length).toBeLessThan(0.6);
  });

  it("channel and adId filters follow the chosen source", async () => {
    const viaFirst = await products(upstream, { ...RANGE, channel: "tiktok", dimension_source: "first_touch" });
    expect(viaFirst).toEqual(allFirstTouch.filter((row) => row.channel === "tiktok"));
    const viaConversion = await products(upstream, { ...RANGE, channel: "tiktok", dimension_source: "conversion" });
    expect(viaConversion).toEqual(all.filter((row) => row.channel === "tiktok"));
    const adId = allFirstTouch.find((row) => row.channel === "pinterest")?.ad_id as string;
    expect(await products(upstream, { ...RANGE, adId, dimension_source: "first_touch" })).toEqual(
      allFirstTouch.filter((row) => row.ad_id === adId),
    );
  });

  it("country filters follow the chosen source too (first_touch values partition the rows)", async () => {
    const firstDims = dimensionValuesSchema.parse(
      (await call(upstream, storePath("ad-metrics", STORE.nwUs, "/dimensions"), { query: { ...RANGE, dimension_source: "first_touch" } }))
        .body,
    );
    const parts = await Promise.all(
      firstDims.countries.map((country) => products(upstream, { ...RANGE, filterCountry: country, dimension_source: "first_touch" })),
    );
    expect(sameRows(parts.flat(), allFirstTouch)).toBe(true);
    const us = await products(upstream, { ...RANGE, filterCountry: "US" });
    const usFirst = await products(upstream, { ...RANGE, filterCountry: "US", dimension_source: "first_touch" });
    expect(usFirst.length).not.toBe(us.length);
  });
});

describe("GET /ad-metrics/{storeUrl}/dimensions", () => {
  const dimensionsPath = storePath("ad-metrics", STORE.nwUs, "/dimensions");
  const distinctSorted = (values: string[]) => [...new Set(values)].sort();
  const DIMENSIONS = ["countries", "deviceTypes", "os", "browsers", "productIds"] as const;

  it("lists distinct, sorted values seen in the range", () => {
    for (const key of DIMENSIONS) expect(dims[key]).toEqual(distinctSorted(dims[key]));
    expect(dims.deviceTypes).toEqual(["desktop", "mobile", "tablet"]);
    expect(dims.countries).toContain("US");
    expect(dims.productIds).toEqual(distinctSorted(all.map((row) => row.product_id)));
  });

  it("applies adId, channel and dimension_source", async () => {
    const adId = all.find((row) => row.channel === "google")?.ad_id as string;
    const byAd = dimensionValuesSchema.parse((await call(upstream, dimensionsPath, { query: { ...RANGE, adId } })).body);
    expect(byAd.productIds).toEqual(distinctSorted(all.filter((row) => row.ad_id === adId).map((row) => row.product_id)));
    const query = { ...RANGE, channel: "snapchat", dimension_source: "first_touch" };
    const byChannel = dimensionValuesSchema.parse((await call(upstream, dimensionsPath, { query })).body);
    expect(byChannel.productIds).toEqual(
      distinctSorted(allFirstTouch.filter((row) => row.channel === "snapchat").map((row) => row.product_id)),
    );
  });

  it("covers the whole data window without dates", async () => {
    const res = await call(upstream, dimensionsPath);
    expect(res.status).toBe(200);
    const whole = dimensionValuesSchema.parse(res.body);
    for (const key of DIMENSIONS) expect(whole[key]).toEqual(expect.arrayContaining(dims[key]));
  });

  it("answers 400 when only one of startDate and endDate is given, or a parameter is unknown", async () => {
    expect((await call(upstream, dimensionsPath, { query: { startDate: "2025-03-01" } })).status).toBe(400);
    expect((await call(upstream, dimensionsPath, { query: { filterCountry: "US" } })).status).toBe(400);
  });
});

describe("streaming", () => {
  it("stops generating rows when the client disconnects", async () => {
    const big = await startDemoUpstream({ port: 0, scale: 20 });
    try {
      const controller = new AbortController();
      const res = await fetch(`${big.baseUrl}${productsPath}?startDate=2023-01-01&endDate=2030-12-31`, {
        headers: { "x-api-key": KEY.admin },
        signal: controller.signal,
      });
      const reader = res.body?.getReader();
      const first = await reader?.read();
      expect(first?.value?.length).toBeGreaterThan(0);
      expect(big.openStreams()).toBe(1);
      controller.abort();
      const deadline = Date.now() + 3000;
      while (big.openStreams() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(big.openStreams()).toBe(0);
    } finally {
      await big.close();
    }
  });
});
