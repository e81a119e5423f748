import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import type { FaultRule } from "@/demo-upstream/server";
import { listAudit, getAudit } from "@/server/audit/audit";
import type { Db } from "@/server/db/database";
import { DatabaseUnavailable } from "@/server/db/database";
import { listRefusals } from "@/server/auth/key-refusals";
import { sendUpstream, UpstreamFailure } from "@/server/upstream/client";
import { endpointById, upstreamPath } from "@/server/upstream/endpoints";
import { dumpAllTables, newLocation, openForSuite, storageBackends } from "@/test/databases";
import { ADMIN_KEY, MARKETER_KEY, startRecordingUpstream, US_STORE, useUpstream } from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { runAction, type ActionRequest, type EngineOptions } from "./engine";
import { OutcomeUnknown } from "./errors";

const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
const group = account!.campaignGroups[1]!;
const cloneEndpoint = endpointById("clone");
const removeEndpoint = endpointById("pixel-delete");

const upstream = demoUpstreamPerFile({ control: true });

const demoClones = async () => ((await (await fetch(`${upstream.origin}/__control/state`)).json()) as { clones: unknown[] }).clones.length;
async function pixelIds(): Promise<string[]> {
  const response = await sendUpstream({
    endpoint: endpointById("pixels-list"),
    params: { storeUrl: US_STORE },
    apiKey: ADMIN_KEY,
    requestId: "t",
  });
  return ((await response.json()) as { pixels: { id: string }[] }).pixels.map((pixel) => pixel.id);
}

function cloneRequest(idempotencyKey: string, apiKey = ADMIN_KEY, name = "Spring copy"): ActionRequest {
  const body = { adAccountId: account!.id, payload: { sourceCampaignGroupId: group.id, name, status: "PAUSED", budget: 50 } };
  const params = { storeUrl: US_STORE };
  return {
    action: "campaign-group.clone",
    idempotencyKey,
    keyFingerprint: `kf2_${createHash("sha256").update(apiKey).digest("hex")}`,
    session: { id: "sess_1", email: "ada@example.com" },
    organizationId: "org_northwind",
    storeUrl: US_STORE,
    fingerprint: { method: "POST", path: upstreamPath(cloneEndpoint, params), body },
    target: {
      adAccountId: account!.id,
      adAccountName: "Northwind LinkedIn",
      sourceCampaignGroupId: group.id,
      sourceCampaignGroupName: group.name,
      newGroupName: name,
    },
    requestId: `dash_${randomUUID()}`,
    send: () => sendUpstream({ endpoint: cloneEndpoint, params, body, apiKey, organizationId: "org_northwind", requestId: "dash_t" }),
  };
}

function removeRequest(idempotencyKey: string, pixelId: string): ActionRequest {
  const params = { storeUrl: US_STORE, pixelId };
  return {
    ...cloneRequest(idempotencyKey),
    action: "tracking-connection.remove",
    fingerprint: { method: "DELETE", path: upstreamPath(removeEndpoint, params) },
    target: { connectionId: pixelId, connectionName: "Main pixel", channel: "facebook" },
    send: () => sendUpstream({ endpoint: removeEndpoint, params, apiKey: ADMIN_KEY, requestId: "dash_t" }),
  };
}

describe.each(storageBackends())("the action engine over HTTP, on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  let options: EngineOptions;
  beforeAll(async () => {
    ({ db, close } = await openForSuite(backend));
    options = { db };
  });
  afterAll(() => close());
  const run = (request: ActionRequest, extra: EngineOptions = {}) => runAction(request, { ...options, ...extra });
  const withFaults = (...rules: FaultRule[]) => upstream.setFaults(rules);
  const audited = async (auditId: string | null) => (await getAudit(db, [US_STORE], auditId!))!;

  it("runs a clone once and replays it, whatever the case of the key", async () => {
    const key = randomUUID();
    const first = await run(cloneRequest(key.toUpperCase()));
    expect(first).toMatchObject({ kind: "fresh", outcome: "succeeded", answer: { status: 200 } });
    const again = await run(cloneRequest(key));
    expect(again).toEqual({ ...first, kind: "replayed" });
    expect(await audited(first.auditId)).toMatchObject({
      outcome: "succeeded",
      status: 200,
      target: { sourceCampaignGroupName: group.name, newGroupName: "Spring copy", newGroupId: JSON.parse(first.answer.body).asset.assetId },
    });
    expect(await demoClones()).toBe(1);
  });

  it("lets 50 concurrent identical clones reach the upstream once", async () => {
    withFaults({ route: "clone", latencyMs: 150 });
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => run(cloneRequest(key))));
    expect(results.filter((result) => result.kind === "fresh")).toHaveLength(1);
    expect(new Set(results.map((result) => result.answer.body)).size).toBe(1);
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("refuses the key for a different request, and a key that is not a UUID, before sending", async () => {
    const key = randomUUID();
    await run(cloneRequest(key, ADMIN_KEY, "One"));
    await expect(run(cloneRequest(key, ADMIN_KEY, "Two"))).rejects.toMatchObject({ status: 409, code: "idempotency_conflict" });
    for (const bad of [null, "", "not-a-uuid"]) {
      await expect(run(cloneRequest(bad as string))).rejects.toMatchObject({ status: 400, code: "bad_request" });
    }
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("keeps a definitive refusal (403): replayed, audited as failed, remembered for the key", async () => {
    const key = randomUUID();
    const refused = await run(cloneRequest(key, MARKETER_KEY));
    expect(refused).toMatchObject({ kind: "fresh", outcome: "failed", answer: { status: 403 } });
    expect((await run(cloneRequest(key, MARKETER_KEY))).kind).toBe("replayed");
    expect(await listRefusals(db, [cloneRequest(key, MARKETER_KEY).keyFingerprint])).toMatchObject([{ action: "campaign-group.clone" }]);
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("treats a 503 in the Error shape as not done: audited, forgotten, and the retry runs", async () => {
    withFaults({ route: "clone", errorStatus: 503, times: 1 });
    const key = randomUUID();
    const busy = await run(cloneRequest(key));
    expect(busy).toMatchObject({ kind: "fresh", outcome: "not_done", answer: { status: 503 } });
    expect((await audited(busy.auditId)).outcome).toBe("not_done");
    expect(await run(cloneRequest(key))).toMatchObject({ kind: "fresh", outcome: "succeeded" });
    expect(await demoClones()).toBe(1);
  });

  it("treats a refused connection as not done: the upstream client's error comes back, and the retry runs", async () => {
    const closed = await startRecordingUpstream(() => ({ status: 200, body: "{}" }));
    await closed.close();
    useUpstream(closed.baseUrl);
    const key = randomUUID();
    const error = await run(cloneRequest(key)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).requestSent).toBe(false);
    const [entry] = (await listAudit(db, { storeUrls: [US_STORE], filters: { outcome: "not_done" } }, { limit: 1 })).entries;
    expect(entry).toMatchObject({ status: null, action: "campaign-group.clone" });
    useUpstream(upstream.baseUrl);
    expect((await run(cloneRequest(key))).outcome).toBe("succeeded");
  });

  it.each<[string, FaultRule, number]>([
    ["a malformed 200", { route: "clone", malformedRate: 1, times: 1 }, 502],
    ["a cut-off body", { route: "clone", truncateRate: 1, times: 1 }, 502],
    ["a reset connection", { route: "clone", dropRate: 1, times: 1 }, 502],
    ["an answer later than UPSTREAM_TIMEOUT_MS", { route: "clone", latencyMs: 700, times: 1 }, 504],
  ])("keeps the outcome of %s unknown: the clone is never sent twice with that key", async (_name, rule, status) => {
    useUpstream(upstream.baseUrl, { UPSTREAM_TIMEOUT_MS: "400" });
    withFaults(rule);
    const key = randomUUID();
    const lost = await run(cloneRequest(key)).catch((caught: unknown) => caught);
    expect(lost).toBeInstanceOf(OutcomeUnknown);
    expect(lost).toMatchObject({ status, code: "outcome_unknown", retrySafe: false });
    expect((await audited((lost as OutcomeUnknown).auditId)).outcome).toBe("unknown");
    const retry = await run(cloneRequest(key)).catch((caught: unknown) => caught);
    expect(retry).toMatchObject({ status: 409, code: "outcome_unknown", auditId: (lost as OutcomeUnknown).auditId });
    expect((retry as OutcomeUnknown).message).toMatch(new RegExp(`${group.name}.*${account!.id}.*Campaign Manager`));
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it.each<[string, number, number | null]>([
    ["a 2xx that fails its schema", 200, 200],
    ["an error status without the Error shape", 502, 502],
  ])("keeps %s unknown", async (_name, status, audit) => {
    const odd = await startRecordingUpstream(() => ({ status, body: status === 200 ? '{"ok":true}' : "<html>Bad gateway</html>" }));
    try {
      useUpstream(odd.baseUrl);
      const lost = await run(cloneRequest(randomUUID())).catch((caught: unknown) => caught);
      expect(lost).toMatchObject({ code: "outcome_unknown", status: 502 });
      expect((await audited((lost as OutcomeUnknown).auditId)).status).toBe(audit);
    } finally {
      await odd.close();
    }
  });

  it("treats a 429 in the Error shape as not done", async () => {
    const limited = await startRecordingUpstream(() => ({ status: 429, body: '{"error":"slow down","retryAfter":"2"}' }));
    try {
      useUpstream(limited.baseUrl);
      expect(await run(cloneRequest(randomUUID()))).toMatchObject({ outcome: "not_done", answer: { status: 429 } });
    } finally {
      await limited.close();
    }
  });

  it("runs a removal again after an unknown outcome, and counts a 404 then as removed", async () => {
    const [first, second] = await pixelIds();
    // Dropped before the upstream acted: the retry removes it.
    withFaults({ route: "pixel-delete", dropRate: 1, times: 1 });
    const key = randomUUID();
    await expect(run(removeRequest(key, first!))).rejects.toMatchObject({ code: "outcome_unknown", retrySafe: true });
    expect(await run(removeRequest(key, first!))).toMatchObject({ kind: "fresh", outcome: "succeeded", answer: { status: 200 } });
    // Cut off after the upstream acted: the retry finds it gone.
    withFaults({ route: "pixel-delete", truncateRate: 1, times: 1 });
    const other = randomUUID();
    await expect(run(removeRequest(other, second!))).rejects.toBeInstanceOf(OutcomeUnknown);
    const gone = await run(removeRequest(other, second!));
    expect(gone).toMatchObject({ outcome: "succeeded", answer: { status: 404 } });
    expect((await audited(gone.auditId)).outcome).toBe("succeeded");
    expect(await pixelIds()).not.toContain(second);
  });

  it("treats a started record past its lock timeout (a crash mid-request) as unknown: 409, nothing sent again", async () => {
    const request = cloneRequest(randomUUID());
    // The first attempt never finishes, as if its process died while waiting for the upstream.
    void run({ ...request, send: () => new Promise<Response>(() => {}) });
    await vi.waitFor(async () =>
      expect(await db.query("select 1 from idempotency_records where idempotency_key = $1", [request.idempotencyKey])).toHaveLength(1),
    );
    await expect(run(request, { lockTimeoutMs: 60_000, maxWaitMs: 200 })).rejects.toMatchObject({ code: "idempotency_in_progress" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const retry = await run(request, { lockTimeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(retry).toMatchObject({ status: 409, code: "outcome_unknown" });
    expect((await audited((retry as OutcomeUnknown).auditId)).outcome).toBe("unknown");
    expect(upstream.requestCounts().clone).toBe(0);
  });

  it("makes a duplicate wait for the running attempt and answer with its outcome", async () => {
    withFaults({ route: "clone", latencyMs: 500, times: 1 });
    const request = cloneRequest(randomUUID());
    const running = run(request);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiter = await run(request);
    expect(waiter).toEqual({ ...(await running), kind: "replayed" });
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("sends nothing when the database is unavailable", async () => {
    const location = await newLocation(backend);
    const gone = await location.open();
    await gone.close();
    await expect(runAction(cloneRequest(randomUUID()), { db: gone })).rejects.toBeInstanceOf(DatabaseUnavailable);
    await location.drop();
    expect(upstream.requestCounts().clone).toBe(0);
  });

  it("stores no API key anywhere after all of the above", async () => {
    const dump = await dumpAllTables(db);
    expect(dump.length).toBeGreaterThan(1000);
    for (const key of [ADMIN_KEY, MARKETER_KEY]) expect(dump).not.toContain(key);
  });
});
