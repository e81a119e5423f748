import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { acrossStores } from "@/server/db/reach";
import { registerAllJobs } from "@/server/jobs/catalog";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { createDigest, sendDigestNow } from "@/server/routes/digests";
import { grantStore } from "@/server/routes/grants";
import { createSavedView } from "@/server/routes/saved-views";
import { signIn } from "@/server/routes/sign-in";
import { digestSchema } from "@/shared/schemas/digest";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, cookieFrom, dashboardRequest, useUpstream } from "@/test/harness";
import { startMailSink, type MailSink } from "@/test/mail-sink";

/**
 * "Send now" pressed on many digests by one organization, and once by another: the other's
 * digest is taken in the worker's first claim and delivered while the flood is still queued
 * (docs/decisions/job-queue.md, "Fair across organizations and stores").
 */
const KUMO_KEY = "sk_demo_admin_kumo_jp_3c9e71f4b2a5";
const keyOf = (apiKey: string) => describeDemo().keys.find((key) => key.key === apiKey)!;
const FLOOD = 16;

let upstream: DemoUpstream;
let sink: MailSink;

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  sink = await startMailSink();
  useUpstream(upstream.baseUrl, { SMTP_URL: sink.url, DELEGATION_KEY: "send-now-flood-master-key-".padEnd(48, "k") });
  registerAllJobs();
});
afterAll(async () => {
  await stopBackgroundWork();
  vi.unstubAllEnvs();
  await sink.close();
  await upstream.close();
});

/** Signs in with `apiKey`, grants its store, and returns a function that creates a digest and presses "Send now" on it. */
async function presser(apiKey: string) {
  const storeUrl = keyOf(apiKey).storeUrl!;
  const base = `/api/stores/${storeUrl}`;
  const signedIn = await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) }));
  const cookie = cookieFrom(signedIn);
  const json = (path: string, body?: unknown) =>
    dashboardRequest(path, { method: "POST", cookie, body: body === undefined ? undefined : JSON.stringify(body) });
  expect((await callRoute(grantStore, json(`${base}/grants`, { consent: true }))).status).toBe(201);
  return async (recipient: string): Promise<string> => {
    const view = await callRoute(
      createSavedView,
      json(`${base}/saved-views`, { name: unique("View"), search: "range=custom&from=2026-01-01&to=2026-01-14" }),
    );
    const { id: savedViewId } = (await view.json()) as { id: string };
    const created = await callRoute(
      createDigest,
      json(`${base}/digests`, { savedViewId, cadence: "daily", localTime: "07:00", recipients: [recipient] }),
    );
    expect(created.status).toBe(201);
    const { id } = digestSchema.parse(await created.json());
    expect((await callRoute(sendDigestNow, json(`${base}/digests/${id}/send`))).status).toBe(202);
    return id;
  };
}

describe("a Send now flood beside another organization's send", () => {
  it("sends the other organization's digest first, while the flood is still queued", async () => {
    const flooder = await presser(ADMIN_KEY);
    const other = await presser(KUMO_KEY);
    for (let index = 0; index < FLOOD; index += 1) await flooder(`flood-${index}@example.com`);
    await other("kumo-team@example.com");

    const db = await database();
    type Run = { organizationId: string; state: string; startedAt: Date | null; finishedAt: Date | null };
    const runs = () =>
      acrossStores(db, "a test of the queue's order", (tx) =>
        tx.query<Run>(
          `select organization_id as "organizationId", state, started_at as "startedAt", finished_at as "finishedAt"
           from jobs where name = 'digest.send' and organization_id = any($1::text[])`,
          [[keyOf(ADMIN_KEY).organizationId, keyOf(KUMO_KEY).organizationId]],
        ),
      );
    expect((await runs()).filter((run) => run.state === "queued")).toHaveLength(FLOOD + 1);

    startBackgroundWork({ pollMs: 50 });
    let kumo: Run | undefined;
    for (let waited = 0; waited < 30_000 && kumo?.state !== "done"; waited += 50) {
      kumo = (await runs()).find((run) => run.organizationId === keyOf(KUMO_KEY).organizationId);
      if (kumo?.state !== "done") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(kumo?.state).toBe("done");
    const flood = (await runs()).filter((run) => run.organizationId === keyOf(ADMIN_KEY).organizationId);
    // Taken in the first claim: no digest of the flood started before it.
    expect(flood.filter((run) => run.startedAt !== null && run.startedAt < kumo!.startedAt!)).toEqual([]);
    // Sent while most of the flood still waited (the flooding organization runs 2 at once).
    expect(flood.filter((run) => run.finishedAt !== null && run.finishedAt <= kumo!.finishedAt!).length).toBeLessThan(FLOOD / 2);
    expect(sink.messages.some((message) => message.to && JSON.stringify(message.to).includes("kumo-team@example.com"))).toBe(true);
  });
});
