import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { checkStoreRules } from "@/server/alerts/jobs";
import { createRule } from "@/server/alerts/rules";
import { database, type Db } from "@/server/db/database";
import { listNotifications, webhookAttempts } from "@/server/alerts/notifications";
import { reachDb } from "@/server/db/reach";
import { enqueueDigest } from "@/server/digests/jobs";
import { createSchedule } from "@/server/digests/store";
import { registerAllJobs } from "@/server/jobs/catalog";
import { ANY_SALE, storeRule } from "@/test/alert-rules";
import { unique } from "@/test/databases";
import { US_STORE } from "@/test/harness";
import { createUsGrant, createUsView } from "@/test/us-store";
import { startTcpProxy, type TcpProxy } from "@/test/tcp-proxy";
import { startBackgroundWork, stopBackgroundWork } from "./worker";

/**
 * A run abandoned at its deadline stops: its handler's upstream reads and webhook posts are cut
 * when the job's signal aborts, over real HTTP, and it begins no next step (no retry of the post).
 */
/** Short, but long enough on a busy machine for the run to reach its post or read before it. */
const DEADLINE_SECONDS = 3;
const WEBHOOK_TIMEOUT_MS = 12_000;
const scope = { organizationId: "org_northwind", storeUrl: US_STORE };

let upstream: DemoUpstream;
let relay: TcpProxy;
let db: Db;

const grantFor = (ownerEmail: string) => createUsGrant(db, ownerEmail);

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  // The dashboard reaches the upstream through a relay that notes when each connection closes.
  relay = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(upstream.baseUrl).port) });
  vi.stubEnv("UPSTREAM_BASE_URL", upstream.baseUrl.replace(/:\d+/, `:${relay.port}`));
  vi.stubEnv("DELEGATION_KEY", "abort-test-master-key-".padEnd(40, "m"));
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "1");
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", String(WEBHOOK_TIMEOUT_MS));
  db = reachDb(await database(), [US_STORE]);
  registerAllJobs();
  startBackgroundWork({ runDeadlineSeconds: DEADLINE_SECONDS });
});
afterAll(async () => {
  await stopBackgroundWork();
  vi.unstubAllEnvs();
  await relay.close();
  await upstream.close();
});

describe("a run's abort signal", () => {
  it("cuts a webhook post waiting for its answer at the run's deadline, and the post is not tried again", async () => {
    const arrived: number[] = [];
    const closed: number[] = [];
    // A receiver that never answers: the post is sent, then held.
    const receiver = createServer((request) => {
      request.resume();
      arrived.push(Date.now());
      request.socket.once("close", () => closed.push(Date.now()));
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const author = `${unique("author")}@example.com`;
      await grantFor(author);
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const rule = await createRule(db, scope, storeRule(unique("Any revenue"), ANY_SALE, { webhookUrl }), author, new Date());
      // The check records the notification and queues its webhook; the worker posts it.
      expect((await checkStoreRules(scope)).detail).toMatch(/^1 rules checked: 1 fired/);
      const [notification] = (await listNotifications(db, [US_STORE], author)).filter((n) => n.ruleId === rule.id);
      await vi.waitFor(() => expect(closed).toHaveLength(1), { timeout: 15_000 });
      // Cut at the run's deadline, not at the webhook's timeout.
      expect(closed[0]! - arrived[0]!).toBeLessThan(DEADLINE_SECONDS * 1000 + 1_500);
      await vi.waitFor(async () => expect(await webhookAttempts(db, notification!.id)).toHaveLength(1), { timeout: 5_000 });
      expect(await webhookAttempts(db, notification!.id)).toEqual([{ attempt: 1, outcome: "unknown", status: null }]);
      // The webhook's timeout and its first backoff (1 s) pass: no second post.
      await new Promise((resolve) => setTimeout(resolve, arrived[0]! + WEBHOOK_TIMEOUT_MS + 2_000 - Date.now()));
      expect(arrived).toHaveLength(1);
      expect(await webhookAttempts(db, notification!.id)).toHaveLength(1);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 60_000);

  it("cuts a digest's upstream read that outlasts the run's deadline", async () => {
    const grant = await grantFor("owner@example.com");
    const view = await createUsView(db, "January", "range=custom&from=2026-01-01&to=2026-01-31", "ada@example.com");
    const schedule = await createSchedule(
      db,
      {
        ...scope,
        savedViewId: view.id,
        grantId: grant.id,
        cadence: "daily",
        localTime: "08:00",
        timeZone: "America/New_York",
        recipients: ["slow-read@example.com"],
        createdByEmail: "ada@example.com",
      },
      new Date(),
    );
    // The product rows answer only after 15 s.
    upstream.setFaults([{ route: "products", latencyMs: 15_000 }]);
    try {
      const cut = () => relay.closed.filter((connection) => !connection.answered);
      const cutBefore = cut().length;
      const queued = Date.now();
      const { id } = await enqueueDigest(schedule!, `now-${new Date().toISOString()}`, db);
      await vi.waitFor(
        async () => {
          const [job] = await db.query<{ detail: string | null }>("select detail from jobs where id = $1", [id]);
          expect(job!.detail).toBe(`Abandoned after its ${DEADLINE_SECONDS}-second deadline.`);
        },
        { timeout: 15_000 },
      );
      // The read's connection is closed unanswered at the deadline, long before its answer would come.
      await vi.waitFor(() => expect(cut().length).toBeGreaterThan(cutBefore), { timeout: 3_000 });
      expect(cut()[cutBefore]!.at - queued).toBeLessThan(DEADLINE_SECONDS * 1000 + 2_000);
    } finally {
      upstream.setFaults([]);
    }
  }, 60_000);
});
