import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ANY_SALE, storeRule } from "@/test/alert-rules";
import { ADMIN_KEY, callRoute, dashboardRequest, US_STORE, useUpstream } from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { addDays, todayIn } from "@/shared/metrics/date-range";
import { portfolioLineSchema, type PortfolioLine, type PortfolioStore } from "@/shared/schemas/portfolio";
import { checkAlertRules, createAlertRule } from "./alerts";
import { addRingKey } from "./key-ring";
import { portfolio, portfolioExport } from "./portfolio";
import { signIn } from "./sign-in";

const KEYS = {
  [US_STORE]: ADMIN_KEY,
  "northwind-eu.myshopify.com": "sk_demo_admin_nw_eu_2a7f94c1e8b3",
  "kumo-living.jp": "sk_demo_admin_kumo_jp_3c9e71f4b2a5",
  "kumo-living-au.myshopify.com": "sk_demo_admin_kumo_au_e81d4c6b0a27",
};
const EU_STORE = "northwind-eu.myshopify.com";
const STORES = Object.keys(KEYS);

const upstream = demoUpstreamPerFile({ control: true });

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0]!)
    .join("; ");
const post = (path: string, cookie: string, body: unknown) =>
  dashboardRequest(path, { method: "POST", cookie, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** A session holding the keys of `stores` (the first signs in). */
async function ringOf(stores: string[]): Promise<string> {
  let cookie = cookieOf(await signIn(post("/api/session", "", { apiKey: KEYS[stores[0] as keyof typeof KEYS] })));
  for (const store of stores.slice(1)) {
    const added = await addRingKey(post("/api/session/keys", cookie, { apiKey: KEYS[store as keyof typeof KEYS] }));
    expect(added.status, store).toBe(201);
    cookie = cookieOf(added);
  }
  return cookie;
}

/** The route's lines, each with when it arrived (ms after the request). */
async function linesOf(cookie: string, query = ""): Promise<{ line: PortfolioLine; at: number }[]> {
  const started = performance.now();
  const response = await callRoute(portfolio, dashboardRequest(`/api/portfolio${query}`, { cookie }));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  const lines: { line: PortfolioLine; at: number }[] = [];
  let buffered = "";
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      lines.push({ line: portfolioLineSchema.parse(JSON.parse(buffered.slice(0, end))), at: performance.now() - started });
      buffered = buffered.slice(end + 1);
    }
  }
  return lines;
}

const storeLines = (lines: { line: PortfolioLine }[]) =>
  lines.map(({ line }) => line).filter((line): line is PortfolioStore => line.type === "store" && !("error" in line));

/** A store's figures summed here from the demo upstream's raw rows, to the cent. */
async function rawSums(store: string, startDate: string, endDate: string) {
  const response = await fetch(`${upstream.baseUrl}/ad-metrics/${store}/products?startDate=${startDate}&endDate=${endDate}`, {
    headers: { "x-api-key": KEYS[store as keyof typeof KEYS] },
  });
  const rows = (await response.json()) as { revenue: number; orders: number; units: number }[];
  const cents = rows.reduce((sum, row) => sum + Math.round(row.revenue * 100), 0);
  return {
    revenue: cents / 100,
    orders: rows.reduce((sum, row) => sum + row.orders, 0),
    units: rows.reduce((sum, row) => sum + row.units, 0),
  };
}

describe("GET /api/portfolio", () => {
  it("gives each store of the ring its own last 7 days in its own zone and currency, equal to its raw rows, read with its own key", async () => {
    const cookie = await ringOf([US_STORE, EU_STORE]);
    upstream.reset();
    const lines = await linesOf(cookie);
    const stores = storeLines(lines);
    expect(stores.map((line) => line.storeUrl).sort()).toEqual([EU_STORE, US_STORE].sort());
    for (const line of stores) {
      const zone = line.storeUrl === US_STORE ? "America/New_York" : "Europe/Berlin";
      expect(line).toMatchObject({ timeZone: zone, currency: line.storeUrl === US_STORE ? "USD" : "EUR", openAlerts: 0 });
      const today = todayIn(zone);
      expect([line.startDate, line.endDate]).toEqual([addDays(today, -6), today]);
      const now = await rawSums(line.storeUrl, line.startDate, line.endDate);
      expect(line.totals).toMatchObject(now);
      expect(line.previous).toMatchObject(await rawSums(line.storeUrl, addDays(today, -13), addDays(today, -7)));
      expect(line.daily).toHaveLength(7);
      expect(line.name).toMatch(/^Northwind Outfitters/);
      expect(line.topChannel).toEqual(expect.any(String));
    }
    const result = lines.at(-1)!.line;
    expect(result).toEqual({
      type: "result",
      stores: 2,
      totalsByCurrency: {
        EUR: { revenue: stores.find((line) => line.currency === "EUR")!.totals.revenue, stores: 1 },
        USD: { revenue: stores.find((line) => line.currency === "USD")!.totals.revenue, stores: 1 },
      },
    });
    const reads = upstream.keyUses().filter((use) => use.route === "products");
    expect(new Set(reads.map((use) => `${use.storeUrl} ${use.key}`))).toEqual(
      new Set([`${US_STORE} Admin — Northwind US`, `${EU_STORE} Admin — Northwind EU`]),
    );
  });

  it("counts each store's open alert episodes", async () => {
    const cookie = await ringOf([US_STORE, EU_STORE]);
    // A rule that fires at once (yesterday's revenue is above 0): one open episode of the US store.
    const rule = storeRule("Any sale", ANY_SALE);
    expect((await callRoute(createAlertRule, post(`/api/stores/${US_STORE}/alerts`, cookie, rule))).status).toBe(201);
    expect((await callRoute(checkAlertRules, post(`/api/stores/${US_STORE}/alerts/check`, cookie, {}))).status).toBe(200);
    const open = Object.fromEntries(storeLines(await linesOf(cookie, "?compare=off")).map((line) => [line.storeUrl, line.openAlerts]));
    expect(open).toEqual({ [US_STORE]: 1, [EU_STORE]: 0 });
  });

  it("reads the session's reach only, whatever the query names", async () => {
    const cookie = await ringOf([US_STORE]);
    upstream.reset();
    const lines = await linesOf(cookie, "?startDate=2026-01-01&endDate=2026-01-31&compare=off");
    expect(lines.map(({ line }) => line.type === "store" && line.storeUrl)).toEqual([US_STORE, false]);
    expect(storeLines(lines)[0]).toMatchObject({ startDate: "2026-01-01", endDate: "2026-01-31", previous: null });
    expect(upstream.keyUses().filter((use) => use.storeUrl && use.storeUrl !== US_STORE)).toEqual([]);
    const other = await callRoute(portfolio, dashboardRequest("/api/portfolio?organizationId=org_kumo", { cookie }));
    expect(other.status).toBe(403);
    for (const query of ["?startDate=2026-01-01", "?range=last7&startDate=2026-01-01&endDate=2026-01-02", "?compare=both", "?store=x"]) {
      const refused = await callRoute(portfolio, dashboardRequest(`/api/portfolio${query}`, { cookie }));
      expect(refused.status, query).toBe(400);
    }
  });

  it("shows a revoked key and an upstream error in their own store's line, and the other store's line stays", async () => {
    const cookie = await ringOf([US_STORE, EU_STORE]);
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: KEYS[EU_STORE] }) });
    const lines = await linesOf(cookie);
    expect(lines.find(({ line }) => line.type === "store" && line.storeUrl === EU_STORE)!.line).toEqual({
      type: "store",
      storeUrl: EU_STORE,
      error: { status: 401, code: "key_revoked", message: "This key was revoked: remove it from your stores or add a new one." },
    });
    expect(storeLines(lines).map((line) => line.storeUrl)).toEqual([US_STORE]);

    upstream.reset();
    const fresh = await ringOf([US_STORE, EU_STORE]);
    await fetch(`${upstream.origin}/__control/faults`, {
      method: "PUT",
      body: JSON.stringify([{ route: "products", storeUrl: US_STORE, errorStatus: 500, errorRate: 1 }]),
    });
    const failed = await linesOf(fresh, "?range=last90&compare=off");
    const usLine = failed.find(({ line }) => line.type === "store" && line.storeUrl === US_STORE)!.line;
    expect(usLine).toMatchObject({ error: { status: 500, code: "upstream_unavailable" } });
    expect(storeLines(failed).map((line) => line.storeUrl)).toEqual([EU_STORE]);
    expect(failed.at(-1)!.line).toMatchObject({ type: "result", stores: 2, totalsByCurrency: { EUR: { stores: 1 } } });
  });

  it("still names a store whose key an earlier read found revoked and dropped from the ring, with what to do", async () => {
    const cookie = await ringOf([US_STORE, EU_STORE]);
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: KEYS[EU_STORE] }) });
    // The first read meets the refusal and drops the key; the next one reads the US store alone.
    await linesOf(cookie);
    const lines = await linesOf(cookie);
    expect(lines.find(({ line }) => line.type === "store" && line.storeUrl === EU_STORE)?.line).toEqual({
      type: "store",
      storeUrl: EU_STORE,
      error: { status: 401, code: "key_revoked", message: "This key was revoked: remove it from your stores or add a new one." },
    });
    expect(storeLines(lines).map((line) => line.storeUrl)).toEqual([US_STORE]);
    upstream.reset();
  });

  it("reads at most two stores at a time, and sends each store's line as soon as it has answered", { timeout: 60_000 }, async () => {
    // A relay in front of the demo upstream counts the stores whose product reads are open at once.
    const open = new Map<string, number>();
    let most = 0;
    const relay: Server = createServer(async (request, response) => {
      const store = /\/ad-metrics\/([^/]+)\/products/.exec(request.url ?? "")?.[1];
      if (store) open.set(store, (open.get(store) ?? 0) + 1);
      most = Math.max(most, [...open.values()].filter((count) => count > 0).length);
      const answer = await fetch(`${upstream.origin}${request.url}`, { headers: request.headers as Record<string, string> });
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      response.end(Buffer.from(await answer.arrayBuffer()));
      if (store) open.set(store, open.get(store)! - 1);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    try {
      const cookie = await ringOf(STORES);
      useUpstream(`http://127.0.0.1:${(relay.address() as AddressInfo).port}/v1`);
      await fetch(`${upstream.origin}/__control/faults`, {
        method: "PUT",
        body: JSON.stringify([{ route: "products", storeUrl: EU_STORE, latencyMs: 6000 }]),
      });
      const lines = await linesOf(cookie, "?range=last30");
      expect(
        storeLines(lines)
          .map((line) => line.storeUrl)
          .sort(),
      ).toEqual([...STORES].sort());
      expect(most).toBe(2);
      const euAt = lines.find(({ line }) => line.type === "store" && line.storeUrl === EU_STORE)!.at;
      // The other stores' lines came while the slow store was still being read.
      expect(lines.filter(({ line, at }) => line.type === "store" && at < euAt)).toHaveLength(3);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});

describe("GET /api/portfolio/export", () => {
  it("holds the lines' figures in the table's order, money under its currency, with a manifest naming each store's zone and range", async () => {
    const cookie = await ringOf([US_STORE, EU_STORE]);
    const stores = storeLines(await linesOf(cookie, "?range=last30&compare=year"));
    const response = await callRoute(
      portfolioExport,
      dashboardRequest("/api/portfolio/export?range=last30&compare=year&sort=revenue&direction=asc", { cookie }),
    );
    expect(response.status).toBe(200);
    const [header, ...rows] = (await response.text())
      .trim()
      .split("\r\n")
      .map((row) => row.split(","));
    expect(header).toContain("Revenue (USD)");
    expect(header).toContain("Revenue (EUR)");
    const sorted = [...stores].sort((a, b) => a.totals.revenue - b.totals.revenue);
    expect(rows.map((row) => row[1])).toEqual(sorted.map((line) => line.storeUrl));
    for (const [index, line] of sorted.entries()) {
      const row = rows[index]!;
      expect(Number(row[header!.indexOf(`Revenue (${line.currency})`)])).toBe(line.totals.revenue);
      expect(Number(row[header!.indexOf("Orders")])).toBe(line.totals.orders);
      expect(row[header!.indexOf(`Revenue (${line.currency === "USD" ? "EUR" : "USD"})`)]).toBe("");
    }
    const manifest = JSON.parse(decodeURIComponent(response.headers.get("x-export-manifest")!)) as {
      kind: string;
      compare: string;
      stores: { store_url: string; time_zone: { used: string }; range: { start_date: string; days: number } }[];
    };
    expect(manifest).toMatchObject({ kind: "portfolio", compare: "year" });
    expect(manifest.stores.map((store) => [store.store_url, store.time_zone.used, store.range.days]).sort()).toEqual(
      [
        [EU_STORE, "Europe/Berlin", 30],
        [US_STORE, "America/New_York", 30],
      ].sort(),
    );
  });
});
