import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { productMetricsEventSchema, type ProductMetricsView } from "@/shared/schemas/product-metrics-view";
import { signIn } from "./sign-in";
import { database } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { ADMIN_KEY, cookieFrom, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { breakdown as breakdownRoute, productMetricsExport as exportRoute, productMetrics as productMetricsRoute } from "./product-metrics";
import { EXPORT_MANIFEST_HEADER, type ExportManifestBase } from "@/shared/schemas/export-manifest";
import { productRows, tablePage } from "@/shared/metrics/presentation";

let upstream: DemoUpstream;
let cookie: string;
const RANGE = "startDate=2026-01-01&endDate=2026-01-31";
const params = { params: Promise.resolve({ storeUrl: US_STORE }) };

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl);
  cookie = cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })));
});
afterAll(() => upstream.close());
beforeEach(async () => {
  useUpstream(upstream.baseUrl, { ROLLUPS: "on" });
  upstream.reset();
  // Each test reads the upstream afresh: no day rollups left by an earlier one.
  await reachDb(await database(), [US_STORE]).query("delete from rollup_days");
});
afterEach(() => vi.unstubAllEnvs());

/** The raw rows straight from the upstream, summed here as a reference. */
async function directTotals(query: string) {
  const response = await fetch(`${upstream.baseUrl}/ad-metrics/${US_STORE}/products?${query}`, { headers: { "x-api-key": ADMIN_KEY } });
  const rows = (await response.json()) as { revenue: number; orders: number; units: number }[];
  const sum = (field: "revenue" | "orders" | "units") => rows.reduce((total, row) => total + row[field], 0);
  return { rows: rows.length, revenue: Math.round(sum("revenue") * 100) / 100, orders: sum("orders"), units: sum("units") };
}

async function events(query: string) {
  const response = await productMetricsRoute(dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${query}`, { cookie }), params);
  const text = await response.text();
  const lines = response.headers.get("content-type")?.includes("ndjson")
    ? text
        .trim()
        .split("\n")
        .map((line) => productMetricsEventSchema.parse(JSON.parse(line)))
    : [];
  return { response, text, lines };
}

async function view(query: string): Promise<ProductMetricsView> {
  const { lines } = await events(query);
  const last = lines.at(-1);
  if (last?.type !== "result") throw new Error(`no result: ${JSON.stringify(last)}`);
  return last.view;
}

describe("GET /api/stores/{storeUrl}/product-metrics", () => {
  it("aggregates exactly what the upstream rows add up to", async () => {
    const [result, direct] = await Promise.all([view(RANGE), directTotals(RANGE)]);
    expect(result.totals).toMatchObject({ rows: direct.rows, orders: direct.orders, units: direct.units });
    expect(result.totals.revenue).toBeCloseTo(direct.revenue, 2);
    expect(result.products.reduce((sum, product) => sum + product.orders, 0)).toBe(direct.orders);
    expect(result.series.reduce((sum, point) => sum + point.orders, 0)).toBe(direct.orders);
    expect(result.currency).toBe("USD");
  });

  it.each([
    ["channel", "channel=google"],
    ["country", "filterCountry=US,CA"],
    ["device type", "filterDeviceType=mobile"],
    ["operating system", "filterOS=iOS"],
    ["browser", "filterBrowser=Safari"],
    ["attribution to the first touch", "dimension_source=first_touch"],
    ["a combination", "channel=facebook&filterDeviceType=desktop&dimension_source=first_touch"],
  ])("honours the %s filter", async (_label, filter) => {
    const query = `${RANGE}&${filter}`;
    const [result, direct, unfiltered] = await Promise.all([view(query), directTotals(query), directTotals(RANGE)]);
    expect(result.totals.orders).toBe(direct.orders);
    expect(result.totals.rows).toBe(direct.rows);
    if (!filter.startsWith("dimension_source")) expect(direct.rows).toBeLessThan(unfiltered.rows);
  });

  it("honours the product and ad filters", async () => {
    const first = await view(RANGE);
    const productId = first.products[0]!.productId;
    const byProduct = await view(`${RANGE}&filterProductId=${productId}`);
    expect(byProduct.products.map((product) => product.productId)).toEqual([productId]);
    const breakdown = await breakdownRoute(
      dashboardRequest(`/api/stores/${US_STORE}/product-metrics/breakdown?${RANGE}&productId=${productId}`, { cookie }),
      params,
    );
    const adId = (await breakdown.json()).rows.find((row: { adId: string | null }) => row.adId)!.adId;
    expect((await view(`${RANGE}&adId=${adId}`)).totals.orders).toBe((await directTotals(`${RANGE}&adId=${adId}`)).orders);
  });

  it("adds the comparison period's totals: previous period and the same weekdays 52 weeks earlier", async () => {
    const previous = await view(`${RANGE}&compare=previous`);
    expect(previous.comparison).toMatchObject({ startDate: "2025-12-01", endDate: "2025-12-31" });
    expect(previous.comparison!.totals.orders).toBe((await directTotals("startDate=2025-12-01&endDate=2025-12-31")).orders);
    const year = await view(`${RANGE}&compare=year`);
    // 364 days back: Thursday 1 January 2026 is compared with Thursday 2 January 2025.
    expect(year.comparison).toMatchObject({ startDate: "2025-01-02", endDate: "2025-02-01" });
    expect(year.comparison!.totals.orders).toBe((await directTotals("startDate=2025-01-02&endDate=2025-02-01")).orders);
  });

  it("ranks the biggest product changes from one read of each period, as the raw rows give them", async () => {
    const reads = upstream.requestCounts().products ?? 0;
    // A filter of its own, so that no earlier test's cached view answers.
    const { changes } = (await view(`${RANGE}&channel=google&compare=previous`)).comparison!;
    expect(upstream.requestCounts().products).toBe(reads + 2);
    const revenueByProduct = async (query: string) => {
      const response = await fetch(`${upstream.baseUrl}/ad-metrics/${US_STORE}/products?${query}`, { headers: { "x-api-key": ADMIN_KEY } });
      const cents = new Map<string, number>();
      for (const row of (await response.json()) as { product_id: string; revenue: number }[])
        cents.set(row.product_id, (cents.get(row.product_id) ?? 0) + Math.round(row.revenue * 100));
      return cents;
    };
    const [now, before] = await Promise.all([
      revenueByProduct(`${RANGE}&channel=google`),
      revenueByProduct("startDate=2025-12-01&endDate=2025-12-31&channel=google"),
    ]);
    const deltas = [...new Set([...now.keys(), ...before.keys()])].map((id) => ({ id, cents: (now.get(id) ?? 0) - (before.get(id) ?? 0) }));
    const top = deltas.filter((d) => d.cents > 0).sort((a, b) => b.cents - a.cents || (a.id < b.id ? -1 : 1));
    const bottom = deltas.filter((d) => d.cents < 0).sort((a, b) => a.cents - b.cents || (a.id < b.id ? -1 : 1));
    expect(changes.products.risers.map((item) => [item.key, Math.round(item.change * 100)])).toEqual(
      top.slice(0, 5).map((d) => [d.id, d.cents]),
    );
    expect(changes.products.fallers.map((item) => [item.key, Math.round(item.change * 100)])).toEqual(
      bottom.slice(0, 5).map((d) => [d.id, d.cents]),
    );
  });

  it("serves a repeated view from the cache without reading the upstream again", async () => {
    await view(`${RANGE}&channel=tiktok`);
    const reads = upstream.requestCounts().products;
    await view(`${RANGE}&channel=tiktok`);
    expect(upstream.requestCounts().products).toBe(reads);
  });

  it("answers an empty view for a range without orders", async () => {
    const result = await view("startDate=2019-01-01&endDate=2019-01-31");
    expect(result.totals).toMatchObject({ rows: 0, orders: 0, revenue: 0, averageOrderValue: null });
    expect(result.products).toEqual([]);
  });

  it("refuses an invalid query with 400 before reading anything", async () => {
    for (const query of [
      "startDate=2026-01-31&endDate=2026-01-01",
      "startDate=2026-01-01",
      `${RANGE}&compare=lastweek`,
      `${RANGE}&unknown=1`,
    ]) {
      const { response } = await events(query);
      expect(response.status, query).toBe(400);
    }
  });

  it("passes the upstream's 404 for a store outside the key's scope", async () => {
    const response = await productMetricsRoute(dashboardRequest(`/api/stores/kumo-living.jp/product-metrics?${RANGE}`, { cookie }), {
      params: Promise.resolve({ storeUrl: "kumo-living.jp" }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).requestId).toEqual(expect.any(String));
  });

  it("ends with an error line carrying a request id when the upstream body is cut off", async () => {
    upstream.setFaults([{ route: "products", truncateRate: 1 }]);
    const { response, lines } = await events(`${RANGE}&channel=linkedin`);
    expect(response.status).toBe(200);
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ type: "error", status: 502 });
    expect(last.type === "error" && last.requestId).toEqual(expect.any(String));
  });

  it("ends with an error line when the upstream answers malformed JSON", async () => {
    upstream.setFaults([{ route: "products", malformedRate: 1 }]);
    const { lines } = await events(`${RANGE}&channel=pinterest`);
    expect(lines.at(-1)).toMatchObject({ type: "error", status: 502, code: "upstream_malformed" });
  });

  it("answers 504 when the upstream is slower than the deadline", async () => {
    vi.stubEnv("UPSTREAM_TIMEOUT_MS", "300");
    upstream.setFaults([{ route: "products", latencyMs: 2_000 }]);
    const { response } = await events(`${RANGE}&channel=snapchat`);
    expect(response.status).toBe(504);
  });
});

describe("a large streamed response", () => {
  let big: DemoUpstream;
  beforeAll(async () => {
    big = await startDemoUpstream({ port: 0, scale: 4 });
  });
  afterAll(() => big.close());

  // Each on a range of its own: the other's view, cached for a minute, would answer it without a read.
  it.each([
    ["on", "2025-01-01"],
    ["off", "2025-01-02"],
  ])(
    "aggregates more than 100,000 rows with progress lines along the way (ROLLUPS=%s)",
    async (rollups, startDate) => {
      useUpstream(big.baseUrl, { ROLLUPS: rollups });
      const bigCookie = cookieFrom(
        await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey: ADMIN_KEY }) })),
      );
      const query = `startDate=${startDate}&endDate=2025-12-31`;
      const response = await productMetricsRoute(
        dashboardRequest(`/api/stores/${US_STORE}/product-metrics?${query}`, { cookie: bigCookie }),
        params,
      );
      const lines = (await response.text())
        .trim()
        .split("\n")
        .map((line) => productMetricsEventSchema.parse(JSON.parse(line)));
      const result = lines.at(-1)!;
      expect(result.type).toBe("result");
      expect(result.type === "result" && result.view.totals.rows).toBeGreaterThan(100_000);
      const progress = lines.filter((line) => line.type === "progress");
      expect(progress.length).toBeGreaterThan(1);
      // Without the rollups too, the page can say "Reading 2025, 61%": how far the days have come.
      const percents = progress.map((line) => line.percent!);
      for (const line of progress) expect(line).toMatchObject({ day: expect.stringMatching(/^2025-/), percent: expect.any(Number) });
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(percents.at(-1)).toBeGreaterThan(50);
      expect(percents.at(-1)).toBeLessThanOrEqual(100);
    },
    60_000,
  );
});

describe("CSV export", () => {
  it("exports the product table as the page shows it (search, sort, rounding), header first, described in its manifest", async () => {
    const response = await exportRoute(
      dashboardRequest(
        `/api/stores/${US_STORE}/product-metrics/export?${RANGE}&kind=products&channel=google&q=jacket&sort=name&direction=asc`,
        {
          cookie,
        },
      ),
      params,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`products_${US_STORE}_2026-01-01_2026-01-31_conversion_filtered.csv`);
    const manifest = JSON.parse(decodeURIComponent(response.headers.get(EXPORT_MANIFEST_HEADER)!)) as ExportManifestBase;
    expect(manifest).toMatchObject({
      kind: "products",
      store_url: US_STORE,
      endpoint: `/api/stores/${US_STORE}/product-metrics/export`,
      dimension_source: "conversion",
      currency: { store_value: "USD", used: "USD" },
      time_zone: { store_value: "America/New_York", used: "America/New_York" },
      range: { start_date: "2026-01-01", end_date: "2026-01-31", utc_start: "2026-01-01T05:00:00.000Z", irregular_days: [] },
      annotations: [],
    });
    expect(manifest.parameters).toMatchObject({ channel: "google", q: "jacket", sort: "name", direction: "asc" });
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("Product,SKU,Product ID,Orders,Units,Revenue (USD),Avg. price (USD),Revenue / order (USD),Share (%)");
    const result = await view(`${RANGE}&channel=google`);
    const shown = tablePage(productRows(result.products, result.totals.revenue), {
      q: "jacket",
      sort: "name",
      direction: "asc",
      page: 1,
      pageSize: 1000,
    }).rows;
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(result.products.length);
    expect(lines.slice(1).map((line) => parseCsvLine(line)[2])).toEqual(shown.map((row) => row.productId));
    for (const line of lines.slice(1)) for (const cell of parseCsvLine(line).slice(5, 8)) expect(cell).toMatch(/^-?\d+(\.\d{1,2})?$|^$/);
  });

  it("streams every raw row", async () => {
    const response = await exportRoute(
      dashboardRequest(`/api/stores/${US_STORE}/product-metrics/export?${RANGE}&kind=rows`, { cookie }),
      params,
    );
    const text = await response.text();
    const dataLines = text.trim().split("\r\n");
    expect(dataLines[0]).toBe("shop,date,time,channel,ad_id,product_id,product_name,product_sku,currency,orders,units,revenue");
    expect(dataLines.length - 1).toBe((await directTotals(RANGE)).rows);
  });

  it("writes filter values taken from a link through the same quoting as the data: no cell starts a formula", async () => {
    const channel = encodeURIComponent('x,=HYPERLINK("http://evil.example/x")');
    for (const kind of ["products", "rows"]) {
      const response = await exportRoute(
        dashboardRequest(`/api/stores/${US_STORE}/product-metrics/export?${RANGE}&kind=${kind}&channel=${channel}`, { cookie }),
        params,
      );
      const text = await response.text();
      const manifest = JSON.parse(decodeURIComponent(response.headers.get(EXPORT_MANIFEST_HEADER)!)) as ExportManifestBase;
      expect(manifest.parameters.channel, kind).toBe('x,=HYPERLINK("http://evil.example/x")');
      for (const line of text.split("\r\n")) for (const cell of parseCsvLine(line)) expect(cell, kind).not.toMatch(/^[=+\-@]/);
    }
  });
});

/** The cells of one CSV line, quotes undone (as a spreadsheet reads it). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quoted && char === '"' && line[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else {
      cell += char;
    }
  }
  return [...cells, cell];
}
