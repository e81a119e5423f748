/**
 * All stores for the demo's four stores over their last 365 days (against the 365 before), on
 * PostgreSQL with the day rollups: cold (a new database; each store's line as it comes, and the
 * whole answer), warm (a restarted instance over the rollups held) and again within the minute a
 * view is kept. The baseline, measured in the same run on a database of its own: the same four
 * stores read one after another through Product metrics (GET /api/stores/{storeUrl}/product-metrics).
 * PORTFOLIO_BENCH_SCALE sets the demo upstream's scale (default 1).
 */
import { resolvePreset } from "@/shared/metrics/date-range";
import { freePort } from "@/test/processes";
import { benchStorages, signInCookie, startDashboardProcess, startDemoUpstreamProcess } from "./processes";

const STORES = {
  "northwind-outfitters.myshopify.com": { key: "sk_demo_admin_nw_us_5d8e2f41c7a9", zone: "America/New_York" },
  "northwind-eu.myshopify.com": { key: "sk_demo_admin_nw_eu_2a7f94c1e8b3", zone: "Europe/Berlin" },
  "kumo-living.jp": { key: "sk_demo_admin_kumo_jp_3c9e71f4b2a5", zone: "Asia/Tokyo" },
  "kumo-living-au.myshopify.com": { key: "sk_demo_admin_kumo_au_e81d4c6b0a27", zone: "Australia/Sydney" },
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A session holding the four stores' keys. */
async function ring(origin: string): Promise<string> {
  const [first, ...rest] = Object.values(STORES);
  let cookie = await signInCookie(origin, first!.key);
  for (const { key } of rest) {
    const added = await fetch(`${origin}/api/session/keys`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie },
      body: JSON.stringify({ apiKey: key }),
    });
    if (added.status !== 201) throw new Error(`adding a key failed: ${added.status}`);
    cookie = added.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
  }
  return cookie;
}

/** The page's read: when each store's line came, and the whole answer. */
async function portfolio(origin: string, cookie: string, compare = "previous"): Promise<{ lines: number[]; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/portfolio?range=last365&compare=${compare}`, { headers: { cookie } });
  const lines: number[] = [];
  let text = "";
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    for (const line of chunk.split("\n")) if (line.includes('"type":"store"')) lines.push(performance.now() - started);
  }
  const failed = text.split("\n").filter((line) => line.includes('"error"'));
  if (!response.ok || failed.length > 0 || !text.includes('"type":"result"')) throw new Error(`All stores failed: ${failed.join(" ")}`);
  return { lines, ms: performance.now() - started };
}

/** The baseline: each store's Product metrics of its own last 365 days, one store after another. */
async function oneByOne(origin: string, cookie: string, compare = "previous"): Promise<number> {
  const started = performance.now();
  for (const [store, { zone }] of Object.entries(STORES)) {
    const query = new URLSearchParams({ ...resolvePreset("last365", zone), compare });
    const body = await (await fetch(`${origin}/api/stores/${store}/product-metrics?${query}`, { headers: { cookie } })).text();
    if (!body.trimEnd().split("\n").at(-1)!.includes('"type":"result"')) throw new Error(`Product metrics of ${store} failed`);
  }
  return performance.now() - started;
}

/** Resolves once the days held stop growing and no claim is open (the rollups are written after the answer). */
async function rollupsWritten(databaseUrl: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let [held, still] = [0, 0];
    for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((wait) => setTimeout(wait, 500))) {
      const { rows } = await client.query<{ days: number; claims: number }>(
        "select (select count(*)::int from rollup_days) as days, (select count(*)::int from rollup_claims) as claims",
      );
      still = rows[0]!.days === held && rows[0]!.claims === 0 ? still + 1 : 0;
      held = rows[0]!.days;
      if (held > 0 && still >= 4) return;
    }
    throw new Error("the rollups were not written within 600 s");
  } finally {
    await client.end();
  }
}

/**
 * Cold on a new database, then warm on a restarted instance; then warm again with the other
 * comparison (its days held too, no view kept yet, the instance started), and the first read again at once.
 */
async function coldThenWarm<T>(
  upstream: string,
  databaseUrl: string,
  read: (origin: string, cookie: string, compare?: string) => Promise<T>,
) {
  const env = { DATABASE_URL: databaseUrl, ROLLUPS: "on", UPSTREAM_TIMEOUT_MS: "300000" };
  const port = await freePort();
  let dashboard = await startDashboardProcess(upstream, port, env);
  try {
    const cold = await read(dashboard.origin, await ring(dashboard.origin));
    await rollupsWritten(databaseUrl);
    await dashboard.stop();
    dashboard = await startDashboardProcess(upstream, port, env);
    const cookie = await ring(dashboard.origin);
    const warm = await read(dashboard.origin, cookie);
    const other = await read(dashboard.origin, cookie, "year");
    return { cold, warm, other, again: await read(dashboard.origin, cookie) };
  } finally {
    await dashboard.stop();
  }
}

export async function benchPortfolio() {
  const scale = process.env.PORTFOLIO_BENCH_SCALE ?? "1";
  const upstream = await startDemoUpstreamProcess(["--scale", scale]);
  const storages = await benchStorages();
  const baselineStorages = await benchStorages();
  try {
    const [postgres, baselineDb] = [storages, baselineStorages].map((list) => list.find((storage) => storage.name === "PostgreSQL"));
    if (!postgres || !baselineDb) return console.log("\nAll stores: not measured (PostgreSQL is needed for the day rollups).");
    const page = await coldThenWarm(upstream.baseUrl, postgres.env.DATABASE_URL!, portfolio);
    const baseline = await coldThenWarm(upstream.baseUrl, baselineDb.env.DATABASE_URL!, oneByOne);
    const ratio = (ms: number, base: number) => `${(ms / base).toFixed(2)} ×`;
    console.log(
      `\nAll stores: the demo's four stores, each its own last 365 days against the 365 before (PostgreSQL, day rollups, scale ${scale})`,
    );
    console.log(
      `  baseline: the four stores' Product metrics one after another, cold ${seconds(baseline.cold)}, warm ${seconds(baseline.warm)}, warm with the other comparison ${seconds(baseline.other)}`,
    );
    console.log(
      `  cold:  whole ${seconds(page.cold.ms)} (${ratio(page.cold.ms, baseline.cold)} the baseline); each store's line at ${page.cold.lines.map(seconds).join(", ")}`,
    );
    console.log(
      `  warm, the first read of a restarted instance: whole ${seconds(page.warm.ms)} (${ratio(page.warm.ms, baseline.warm)} the baseline)`,
    );
    console.log(
      `  warm, the other comparison (its days held, no view kept): whole ${seconds(page.other.ms)} (${ratio(page.other.ms, baseline.other)} the baseline; goal at most 1 s)`,
    );
    console.log(`  again within a minute: ${seconds(page.again.ms)}`);
  } finally {
    for (const storage of [...storages, ...baselineStorages]) await storage.drop();
    await upstream.stop();
  }
}
