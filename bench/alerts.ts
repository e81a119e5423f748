/**
 * Alert checks at scale: 200 rules of one store (revenue, orders and units; the whole store, its
 * channels and products; anomaly and threshold; day and hour) checked in one run through the
 * production dashboard against the demo upstream, with "Check now". Figures: time per run and
 * per rule, upstream requests per rule (identical reads shared within a run), and the
 * dashboard's RSS. Baseline in the same run: one rule checked alone.
 */
import { execFileSync } from "node:child_process";
import { getStoreCatalog } from "@/demo-upstream/catalog";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import { benchStorages, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

const RULES = 200;
const RUNS = 3;
const CHANNELS = ["facebook", "google", "tiktok", "pinterest", "snapchat", "linkedin", "email", "organic"];
const METRICS = ["revenue", "orders", "units"] as const;
const SENSITIVITIES = ["low", "medium", "high"] as const;

function rules(count: number): AlertRuleInput[] {
  const products = getStoreCatalog(42, 1, US_STORE).products.map((product) => product.id);
  return Array.from({ length: count }, (_, index) => {
    const target =
      index % 4 === 0
        ? ({ kind: "store" } as const)
        : index % 4 === 1 || index % 4 === 2
          ? ({ kind: "channel", channel: CHANNELS[index % CHANNELS.length]! } as const)
          : ({ kind: "product", productId: products[index % Math.min(products.length, 12)]! } as const);
    return {
      name: `Bench rule ${index}`,
      metric: METRICS[index % METRICS.length]!,
      target,
      savedViewId: null,
      granularity: index % 10 === 9 ? "hour" : "day",
      condition:
        index % 5 === 4
          ? { kind: "threshold", operator: "below", threshold: 10 }
          : { kind: "anomaly", direction: "both", sensitivity: SENSITIVITIES[index % 3]!, minVolume: 50, weeks: 4 + (index % 5) },
      emails: [],
      webhookUrl: null,
    };
  });
}

/** RSS in MB of the dashboard's server: the largest process under the launcher. */
function dashboardRssMb(launcherPid: number): number {
  const out = execFileSync("ps", ["-o", "rss=", "-g", String(launcherPid)], { encoding: "utf8" });
  return Math.max(...out.split("\n").filter(Boolean).map(Number)) / 1024;
}

export async function benchAlerts() {
  const storages = await benchStorages();
  try {
    for (const storage of storages) {
      const upstream = await startDemoUpstreamProcess(["--control"]);
      const dashboard = await startDashboardProcess(upstream.baseUrl, 3902, storage.env).catch(async (error: unknown) => {
        await upstream.stop();
        throw error;
      });
      const control = upstream.baseUrl.replace(/\/v1$/, "/__control");
      const productReads = async () =>
        ((await (await fetch(`${control}/state`)).json()) as { requestCounts: Record<string, number> }).requestCounts;
      try {
        const cookie = await signInCookie(dashboard.origin);
        const headers = { cookie, origin: dashboard.origin, "content-type": "application/json" };
        const alerts = `${dashboard.origin}/api/stores/${US_STORE}/alerts`;
        const check = async () => {
          await fetch(`${control}/reset`, { method: "POST" });
          const started = performance.now();
          const response = await fetch(`${alerts}/check`, { method: "POST", headers });
          const result = (await response.json()) as { checked: number; failed: number };
          if (!response.ok || result.failed > 0) throw new Error(`check answered ${response.status}: ${JSON.stringify(result)}`);
          const counts = await productReads();
          return { ms: performance.now() - started, checked: result.checked, reads: counts.products! + counts["store-profile"]! };
        };
        const [first, ...more] = rules(RULES);
        await fetch(alerts, { method: "POST", headers, body: JSON.stringify(first) });
        await check(); // warm-up
        const alone = await check();
        for (const rule of more) {
          const response = await fetch(alerts, { method: "POST", headers, body: JSON.stringify(rule) });
          if (response.status !== 201) throw new Error(`creating a rule answered ${response.status}: ${await response.text()}`);
        }
        const rssBefore = dashboardRssMb(dashboard.child.pid!);
        const runs = [];
        for (let run = 0; run < RUNS; run++) runs.push(await check());
        const rssAfter = dashboardRssMb(dashboard.child.pid!);
        const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)]!;
        console.log(`\nAlert checks, ${storage.name}: ${median.checked} rules of one store in one run (median of ${RUNS})`);
        console.log(
          `  one run ${(median.ms / 1000).toFixed(2)} s, ${(median.ms / median.checked).toFixed(1)} ms per rule; baseline: 1 rule alone ${alone.ms.toFixed(0)} ms`,
        );
        console.log(
          `  upstream requests: ${median.reads} for ${median.checked} rules (${(median.reads / median.checked).toFixed(2)} per rule; 1 rule alone: ${alone.reads})`,
        );
        console.log(`  dashboard RSS ${rssBefore.toFixed(0)} MB before the runs, ${rssAfter.toFixed(0)} MB after`);
      } finally {
        await dashboard.stop();
        await upstream.stop();
      }
    }
  } finally {
    for (const storage of storages) await storage.drop();
  }
}
