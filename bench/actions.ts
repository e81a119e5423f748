/**
 * A guarded action's overhead: the same campaign clone sent straight to the demo upstream and
 * through the dashboard (idempotency record, name lookup, audit entry in the database), one at
 * a time, in one run, on each storage. Overhead = p50 through the dashboard minus p50 direct.
 */
import { randomUUID } from "node:crypto";
import { describeDemo } from "@/demo-upstream/describe";
import { ADMIN_KEY, benchStorages, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

const ROUNDS = 60;
const WARM_UP = 10;

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  await response.text();
  if (response.status !== 200) throw new Error(`clone answered ${response.status}`);
  return performance.now() - started;
}

export async function benchActions() {
  const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
  const group = account!.campaignGroups[0]!;
  const body = (name: string) =>
    JSON.stringify({ adAccountId: account!.id, payload: { sourceCampaignGroupId: group.id, name, status: "PAUSED", budget: 50 } });
  const storages = await benchStorages();
  try {
    for (const storage of storages) {
      const upstream = await startDemoUpstreamProcess();
      const dashboard = await startDashboardProcess(upstream.baseUrl, 3901, storage.env);
      try {
        const cookie = await signInCookie(dashboard.origin);
        const path = `/platform/${US_STORE}/actions/clone-linkedin-campaign`;
        const direct = (name: string) =>
          fetch(`${upstream.baseUrl}${path}`, {
            method: "POST",
            headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
            body: body(name),
          });
        const guarded = (name: string) =>
          fetch(`${dashboard.origin}/api/v1${path}`, {
            method: "POST",
            headers: { cookie, origin: dashboard.origin, "content-type": "application/json", "idempotency-key": randomUUID() },
            body: body(name),
          });
        const directTimes: number[] = [];
        const guardedTimes: number[] = [];
        // Interleaved, so that both sides see the same moments of a noisy machine.
        for (let round = 0; round < WARM_UP + ROUNDS; round++) {
          const a = await timed(() => direct(`Bench ${round}`));
          const b = await timed(() => guarded(`Bench ${round}`));
          if (round < WARM_UP) continue;
          directTimes.push(a);
          guardedTimes.push(b);
        }
        const overhead = p50(guardedTimes) - p50(directTimes);
        console.log(`\nGuarded action (campaign clone), ${ROUNDS} sequential rounds, records on ${storage.name}:`);
        console.log(`  demo upstream directly (baseline)   p50 ${p50(directTimes).toFixed(2)} ms`);
        console.log(`  through the dashboard               p50 ${p50(guardedTimes).toFixed(2)} ms`);
        console.log(`  ratio ${(p50(guardedTimes) / p50(directTimes)).toFixed(2)}, overhead ${overhead.toFixed(2)} ms (target ≤ 15 ms)`);
      } finally {
        await dashboard.stop();
        await upstream.stop();
      }
    }
  } finally {
    for (const storage of storages) await storage.drop();
  }
}
