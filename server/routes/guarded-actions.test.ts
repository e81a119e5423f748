import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as activityRoute } from "@/app/api/activity/route";
import { describeDemo } from "@/demo-upstream/describe";
import { signIn } from "./sign-in";
import { proxyToUpstream } from "./proxy";
import { ADMIN_KEY, cookieFrom, dashboardRequest, MARKETER_KEY, US_STORE, useUpstream } from "@/test/harness";
import { demoUpstreamPerFile } from "@/test/demo-upstream";
import { captureLogLines } from "@/server/observability/log";
import { activityResponseSchema, type AuditEntry } from "@/shared/schemas/activity";

const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const KUMO_KEY = "sk_demo_admin_kumo_jp_3c9e71f4b2a5";
const KUMO_STORE = "kumo-living.jp";
const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
const sourceGroup = account!.campaignGroups[1]!;
const clonePath = `/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`;

const upstream = demoUpstreamPerFile({ control: true });
const cookies: Record<string, string> = {};

async function cookieFor(apiKey: string) {
  return cookieFrom(await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) })));
}

function cloneBody(name = "Spring copy") {
  return JSON.stringify({
    adAccountId: account!.id,
    payload: { sourceCampaignGroupId: sourceGroup.id, name, status: "PAUSED", budget: 50 },
  });
}

function clone(key: string | undefined, options: { body?: string; cookie?: string; origin?: string } = {}) {
  const headers: Record<string, string> = key === undefined ? {} : { "idempotency-key": key };
  if (options.origin) headers.origin = options.origin;
  return proxyToUpstream(
    dashboardRequest(clonePath, { method: "POST", cookie: options.cookie ?? cookies.admin, body: options.body ?? cloneBody(), headers }),
  );
}

function removePixel(pixelId: string, key: string | undefined, options: { cookie?: string; storeUrl?: string; origin?: string } = {}) {
  const headers: Record<string, string> = key === undefined ? {} : { "idempotency-key": key };
  if (options.origin) headers.origin = options.origin;
  return proxyToUpstream(
    dashboardRequest(`/api/v1/pixels/${options.storeUrl ?? US_STORE}/${pixelId}`, {
      method: "DELETE",
      cookie: options.cookie ?? cookies.admin,
      headers,
    }),
  );
}

async function pixelIds(storeUrl = US_STORE, cookie = cookies.admin): Promise<string[]> {
  const response = await proxyToUpstream(dashboardRequest(`/api/v1/pixels/${storeUrl}`, { cookie }));
  return ((await response.json()) as { pixels: { id: string }[] }).pixels.map((pixel) => pixel.id);
}

async function demoClones(): Promise<unknown[]> {
  return ((await (await fetch(`${upstream.origin}/__control/state`)).json()) as { clones: unknown[] }).clones;
}

async function activity(cookie: string | undefined): Promise<AuditEntry[]> {
  const response = await activityRoute(dashboardRequest("/api/activity", { cookie }));
  expect(response.status).toBe(200);
  return activityResponseSchema.parse(await response.json()).entries;
}

beforeAll(async () => {
  useUpstream(upstream.baseUrl);
  for (const [name, key] of Object.entries({ admin: ADMIN_KEY, marketer: MARKETER_KEY, manager: MANAGER_KEY, kumo: KUMO_KEY }))
    cookies[name] = await cookieFor(key);
});

describe("the guard of clone and remove", () => {
  it("refuses cross-origin actions before anything else, and the key stays unused", async () => {
    const key = randomUUID();
    const [pixel] = await pixelIds();
    expect((await removePixel(pixel!, key, { origin: "https://evil.example" })).status).toBe(403);
    const crossSiteClone = await clone(key, { origin: "https://evil.example" });
    expect(crossSiteClone.status).toBe(403);
    expect((await crossSiteClone.json()).code).toBe("cross_site");
    expect(upstream.requestCounts()["pixel-delete"] + upstream.requestCounts().clone).toBe(0);

    const sameOrigin = await removePixel(pixel!, key);
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 400 without an Idempotency-Key, or with one that is not a UUID, without calling the upstream", async () => {
    const [pixel] = await pixelIds();
    for (const key of [undefined, "", "not-a-uuid", "1234"]) {
      const removal = await removePixel(pixel!, key);
      expect(removal.status, String(key)).toBe(400);
      expect((await removal.json()).error).toMatch(/Idempotency-Key/);
      expect((await clone(key)).status, String(key)).toBe(400);
    }
    expect(upstream.requestCounts()["pixel-delete"] + upstream.requestCounts().clone).toBe(0);
    expect(await pixelIds()).toContain(pixel);
  });

  it("replays a removal: the upstream runs it once, the repeat gets the same answer", async () => {
    const before = await pixelIds();
    const key = randomUUID();
    const first = await removePixel(before[0]!, key);
    const firstBody = await first.text();
    const second = await removePixel(before[0]!, key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.text()).toBe(firstBody);
    expect(second.headers.get("x-request-id")).toBe(first.headers.get("x-request-id"));
    expect(upstream.requestCounts()["pixel-delete"]).toBe(1);
    expect(await pixelIds()).toEqual(before.slice(1));
  });

  it("replays a clone: one campaign group, whatever the number of repeats", async () => {
    const key = randomUUID();
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt++) answers.push(await clone(key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(new Set(bodies.map((body) => body.asset.assetId)).size).toBe(1);
    expect(upstream.requestCounts().clone).toBe(1);
    expect(await demoClones()).toHaveLength(1);
  });

  it("makes duplicates that arrive while the first is in flight wait for it, then answer its result", async () => {
    upstream.setFaults([{ route: "clone", latencyMs: 600 }]);
    const key = randomUUID();
    const finished: Record<string, number> = {};
    const first = clone(key).then((answer) => ((finished.first = performance.now()), answer));
    // The duplicates leave only once the upstream holds the first request: they cannot be a sequential replay.
    while ((upstream.requestCounts().clone ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const sentAt = performance.now();
    const duplicates = [clone(key), clone(key)].map((answer) =>
      answer.then((response) => ((finished.duplicate = performance.now()), response)),
    );
    const answers = [await first, ...(await Promise.all(duplicates))];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.headers.get("idempotent-replayed")).toBeNull();
    expect(answers.slice(1).map((answer) => answer.headers.get("idempotent-replayed"))).toEqual(["true", "true"]);
    // They waited: answered after the first, not at once.
    expect(finished.duplicate!).toBeGreaterThanOrEqual(finished.first!);
    expect(finished.duplicate! - sentAt).toBeGreaterThan(100);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(upstream.requestCounts().clone).toBe(1);
    expect(await demoClones()).toHaveLength(1);
  });

  it("answers 409 when the key comes back with a different request", async () => {
    const key = randomUUID();
    expect((await clone(key, { body: cloneBody("First name") })).status).toBe(200);
    const changed = await clone(key, { body: cloneBody("Second name") });
    expect(changed.status).toBe(409);
    expect((await changed.json()).error).toMatch(/different request/);
    const [pixel] = await pixelIds();
    expect((await removePixel(pixel!, key)).status).toBe(409);
    expect(upstream.requestCounts().clone).toBe(1);
    expect(upstream.requestCounts()["pixel-delete"]).toBe(0);
  });

  it("does not store a request that failed validation: the key still works afterwards", async () => {
    const key = randomUUID();
    const invalid = await clone(key, {
      body: JSON.stringify({ adAccountId: account!.id, payload: { sourceCampaignGroupId: sourceGroup.id, name: "x", budget: 0 } }),
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).details.issues[0].path).toBe("payload.budget");
    const valid = await clone(key);
    expect(valid.status).toBe(200);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("does not keep a 503 that asks to retry later: a retry with the same key runs, and creates one clone", async () => {
    upstream.setFaults([{ route: "clone", errorStatus: 503, errorRate: 1, times: 1 }]);
    const key = randomUUID();
    expect((await clone(key)).status).toBe(503);
    const retry = await clone(key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect((await clone(key)).headers.get("idempotent-replayed")).toBe("true");
    expect(upstream.requestCounts().clone).toBe(2);
    expect(await demoClones()).toHaveLength(1);
  });

  it("keeps a 500 in the Error shape as the definitive answer: replayed, not sent again", async () => {
    upstream.setFaults([{ route: "clone", errorStatus: 500, errorRate: 1, times: 1 }]);
    const key = randomUUID();
    expect((await clone(key)).status).toBe(500);
    const again = await clone(key);
    expect(again.status).toBe(500);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("never replays a malformed 200: the clone's outcome is unknown, and a retry with the key is refused", async () => {
    upstream.setFaults([{ route: "clone", malformedRate: 1, times: 1 }]);
    const key = randomUUID();
    const lost = await clone(key);
    expect(lost.status).toBe(502);
    expect(await lost.json()).toMatchObject({
      code: "outcome_unknown",
      details: { retrySafe: false, target: { sourceCampaignGroupId: sourceGroup.id } },
    });
    const retry = await clone(key.toUpperCase());
    expect(retry.status).toBe(409);
    expect((await retry.json()).code).toBe("outcome_unknown");
    expect(upstream.requestCounts().clone).toBe(1);
  });

  it("keeps a 4xx answer: a refused removal is replayed, not sent again", async () => {
    const [pixel] = await pixelIds();
    const key = randomUUID();
    expect((await removePixel(pixel!, key, { cookie: cookies.marketer })).status).toBe(403);
    const again = await removePixel(pixel!, key, { cookie: cookies.marketer });
    expect(again.status).toBe(403);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(upstream.requestCounts()["pixel-delete"]).toBe(1);
  });

  it("scopes keys to the API key: the same Idempotency-Key from another key is another action", async () => {
    const key = randomUUID();
    expect((await clone(key)).status).toBe(200);
    const other = await clone(key, { cookie: cookies.manager });
    expect(other.status).toBe(200);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(await demoClones()).toHaveLength(2);
  });
});

describe("the audit log and GET /api/activity", () => {
  it("writes one entry per action run, never a replay, and never a key", async () => {
    const secrets = [ADMIN_KEY, cookies.admin!.slice(8, 40)];
    let entries: AuditEntry[] = [];
    const logged = await captureLogLines(async () => {
      const earlier = new Set((await activity(cookies.admin)).map((entry) => entry.id));
      const [pixel] = await pixelIds();
      const removeKey = randomUUID();
      const cloneKey = randomUUID();
      secrets.push(removeKey, cloneKey);
      const removal = await removePixel(pixel!, removeKey);
      await removePixel(pixel!, removeKey);
      const cloned = await (await clone(cloneKey, { body: cloneBody("Audited copy") })).json();
      await removePixel("px_does_not_exist", randomUUID());

      entries = (await activity(cookies.admin)).filter((entry) => !earlier.has(entry.id));
      expect(entries.map((entry) => [entry.action, entry.outcome, entry.status])).toEqual([
        ["tracking-connection.remove", "failed", 404],
        ["campaign-group.clone", "succeeded", 200],
        ["tracking-connection.remove", "succeeded", 200],
      ]);
      expect(entries[1]).toMatchObject({
        userEmail: expect.stringContaining("@"),
        organizationId: "org_northwind",
        storeUrl: US_STORE,
        targetIds: [account!.id, sourceGroup.id],
        resultIds: [cloned.asset.assetId],
      });
      expect(entries[2]!.upstreamRequestId).toBe(removal.headers.get("x-request-id"));
    });
    const auditLines = logged.filter((line) => line.msg === "audit").map((line) => JSON.stringify(line));
    expect(auditLines).toHaveLength(3);
    for (const text of [JSON.stringify(entries), ...auditLines]) for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("shows each organization only its own entries", async () => {
    const [usPixel] = await pixelIds();
    const [kumoPixel] = await pixelIds(KUMO_STORE, cookies.kumo);
    expect((await removePixel(usPixel!, randomUUID())).status).toBe(200);
    expect((await removePixel(kumoPixel!, randomUUID(), { cookie: cookies.kumo, storeUrl: KUMO_STORE })).status).toBe(200);

    const kumo = await activity(cookies.kumo);
    expect(kumo.length).toBeGreaterThan(0);
    expect(kumo.every((entry) => entry.organizationId === "org_kumo" && entry.storeUrl === KUMO_STORE)).toBe(true);
    expect(kumo.some((entry) => entry.targetIds.includes(kumoPixel!))).toBe(true);

    // The marketer shares the admin's organization: it sees the admin's action, and no other organization's.
    const northwind = await activity(cookies.marketer);
    expect(northwind.some((entry) => entry.targetIds.includes(usPixel!))).toBe(true);
    expect(northwind.every((entry) => entry.organizationId === "org_northwind")).toBe(true);
  });

  it("lists newest first, and needs a session", async () => {
    for (let index = 0; index < 2; index++) await clone(randomUUID(), { body: cloneBody(`Ordered ${index}`) });
    const times = (await activity(cookies.admin)).map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
    const signedOut = await activityRoute(dashboardRequest("/api/activity"));
    expect(signedOut.status).toBe(401);
    expect((await signedOut.json()).code).toBe("no_session");
  });
});
