import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import type { DemoUpstream } from "@/demo-upstream/server";
import { openDatabase } from "@/server/db/database";
import { allEndpoints, upstreamPath, type Endpoint } from "@/server/upstream/endpoints";
import { startEmbeddedDashboard, type Dashboard, type EmbeddedDashboard } from "@/test/dashboard-instances";
import { ANY_SALE, storeRule, UNDER_ONE } from "@/test/alert-rules";
import { ADMIN_KEY, cookieFrom, MARKETER_KEY, US_STORE } from "@/test/harness";
import { routeTable, type TableRoute } from "@/test/route-table";

/**
 * Every route of the route table, sent the cross-tenant matrix over real HTTP to a production
 * dashboard process: another organization named by header and by query, another store of the
 * same organization, a store that does not exist, an invented organization, and the read-only
 * key on actions. Each is refused as the contract's part 5 says (403 for an organization, 404
 * for a store) before anything is read upstream or written to the database.
 */
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const LEGACY_KEY = "sk_demo_legacy_unscoped_8f2d5b1a9c37";
const EXPIRED_KEY = "sk_demo_expired_nw_us_6e3b8d52a1f0";
/** A key of the owner's own store, refused by the upstream after it signed in (as an expired key is). */
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const KUMO_KEY = "sk_demo_admin_kumo_jp_3c9e71f4b2a5";
const VICTIM_ORG = "org_northwind";
const EU_STORE = "northwind-eu.myshopify.com";
const KUMO_STORE = "kumo-living.jp";
const RANGE = "startDate=2026-01-01&endDate=2026-01-07";
const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);

type Attack = "kumo-header" | "kumo-query" | "kumo-plain" | "same-org-store" | "missing-store" | "invented-org";
const STORE_ATTACKS: Record<Attack, { status: number; code: string }> = {
  "kumo-header": { status: 403, code: "forbidden" },
  "kumo-query": { status: 403, code: "forbidden" },
  "kumo-plain": { status: 404, code: "not_found" },
  "same-org-store": { status: 404, code: "not_found" },
  "missing-store": { status: 404, code: "not_found" },
  "invented-org": { status: 403, code: "forbidden" },
};
const REACH_ATTACKS: Attack[] = ["kumo-header", "kumo-query", "invented-org"];

interface Sample {
  query?: string;
  body?: unknown;
  action?: boolean;
  /** Sends an Idempotency-Key, as a press of a change of the dashboard's own that must run once. */
  idempotencyKey?: boolean;
}

/** A digest of the victim's saved view (its id is known once the view is made). */
const DIGEST_BODY = { savedViewId: "", cadence: "daily", localTime: "08:00", recipients: ["team@example.com"] };

/** A valid request of each route, for its own scope; a new route fails until it has one here. */
const CLONE_BODY = {
  adAccountId: account!.id,
  payload: { sourceCampaignGroupId: account!.campaignGroups[0]!.id, name: "Matrix clone", status: "PAUSED" },
};

const ALERT_RULE = storeRule("Matrix rule", UNDER_ONE);

const SAMPLES: Record<string, Sample> = {
  "GET /api/stores/[storeUrl]/clone-attempt": {},
  "PUT /api/stores/[storeUrl]/clone-attempt": { body: { request: CLONE_BODY, idempotencyKey: randomUUID() } },
  "DELETE /api/stores/[storeUrl]/clone-attempt": {},
  "GET /api/stores/[storeUrl]/clone-duplicates": {
    query: new URLSearchParams({
      adAccountId: CLONE_BODY.adAccountId,
      sourceCampaignGroupId: CLONE_BODY.payload.sourceCampaignGroupId,
      name: CLONE_BODY.payload.name,
    }).toString(),
  },
  "GET /api/activity": {},
  "GET /api/activity/export": {},
  "GET /api/session": {},
  // The victim's ring takes the EU store's key; removing its own store's key (the last of the cookie it sends) signs it out, so it runs last.
  "POST /api/session/keys": { body: { apiKey: EU_KEY } },
  "POST /api/session/keys/remove": { body: { storeUrl: US_STORE } },
  "POST /api/session": { body: {} },
  "DELETE /api/session": {},
  "GET /api/health": {},
  "GET /api/health/live": {},
  "GET /api/health/ready": {},
  "GET /api/unsubscribe/[token]": {},
  "POST /api/unsubscribe/[token]": {},
  "GET /api/sessions": {},
  "DELETE /api/sessions": {},
  "DELETE /api/sessions/[id]": {},
  "GET /api/stores/[storeUrl]/product-metrics": { query: RANGE },
  "GET /api/stores/[storeUrl]/product-metrics/breakdown": { query: `${RANGE}&productId=p_none` },
  "GET /api/stores/[storeUrl]/product-metrics/export": { query: `${RANGE}&kind=products` },
  "GET /api/stores/[storeUrl]/data-changes": {},
  "GET /api/stores/[storeUrl]/rollups": {},
  "GET /api/stores/[storeUrl]/action-permissions": { query: "action=tracking-connection.remove" },
  "GET /api/stores/[storeUrl]/linkedin-assets": {},
  "GET /api/stores/[storeUrl]/saved-views": {},
  "POST /api/stores/[storeUrl]/saved-views": { body: { name: "Matrix view", search: "" } },
  "PATCH /api/stores/[storeUrl]/saved-views/[id]": { body: { name: "Renamed by its owner" } },
  "DELETE /api/stores/[storeUrl]/saved-views/[id]": {},
  "POST /api/stores/[storeUrl]/saved-views/[id]/restore": {},
  "GET /api/stores/[storeUrl]/grants": {},
  "POST /api/stores/[storeUrl]/grants": { body: { consent: true } },
  "DELETE /api/stores/[storeUrl]/grants/[id]": {},
  "GET /api/stores/[storeUrl]/digests": {},
  "POST /api/stores/[storeUrl]/digests": { body: DIGEST_BODY },
  "PATCH /api/stores/[storeUrl]/digests/[id]": {
    body: { cadence: "weekly", weekday: 1, localTime: "09:00", recipients: ["team@example.com"] },
  },
  "DELETE /api/stores/[storeUrl]/digests/[id]": {},
  "POST /api/stores/[storeUrl]/digests/[id]/send": {},
  "GET /api/runs": {},
  "POST /api/stores/[storeUrl]/deliveries/decisions": {
    body: { key: "digest:digest_matrix:slot:team@example.com", decision: "arrived" },
    idempotencyKey: true,
  },
  "GET /api/outbox": {},
  "GET /api/portfolio": { query: RANGE },
  "GET /api/portfolio/export": { query: `${RANGE}&sort=revenue` },
  "GET /api/portfolio/digests": {},
  "POST /api/portfolio/digests": {
    body: { stores: [US_STORE], search: "range=last7", cadence: "daily", localTime: "08:00", recipients: ["team@example.com"] },
  },
  "GET /api/stores/[storeUrl]/alerts": {},
  "POST /api/stores/[storeUrl]/alerts": { body: ALERT_RULE },
  "GET /api/stores/[storeUrl]/alerts/[id]": {},
  "PUT /api/stores/[storeUrl]/alerts/[id]": { body: ALERT_RULE },
  "DELETE /api/stores/[storeUrl]/alerts/[id]": {},
  "POST /api/stores/[storeUrl]/alerts/[id]/snooze": { body: { minutes: 60 } },
  "POST /api/stores/[storeUrl]/alerts/[id]/mute": { body: { muted: true } },
  "POST /api/stores/[storeUrl]/alerts/backtest": { body: ALERT_RULE },
  "POST /api/stores/[storeUrl]/alerts/check": {},
  "GET /api/notifications": {},
  "PATCH /api/notifications/[id]": { body: { read: true } },
  "GET /api/stores/[storeUrl]/annotations": { query: RANGE },
  "POST /api/stores/[storeUrl]/notes": { body: { startDate: "2026-01-05", endDate: "2026-01-05", text: "Matrix note" } },
  "PATCH /api/stores/[storeUrl]/notes/[noteId]": {
    body: { startDate: "2026-01-06", endDate: "2026-01-06", text: "Changed by its author" },
  },
  "DELETE /api/stores/[storeUrl]/notes/[noteId]": {},
  "GET /api/stores/[storeUrl]/targets": { query: "month=2026-01" },
  "PUT /api/stores/[storeUrl]/targets": { body: { month: "2026-01", amount: 250000 } },
};

const ENDPOINT_SAMPLES: Record<string, Sample> = {
  context: {},
  me: {},
  organizations: {},
  stores: {},
  "store-profile": {},
  catalogs: {},
  products: { query: RANGE },
  dimensions: { query: RANGE },
  enrich: { body: { channel: "linkedin", assetIds: [account!.campaignGroups[0]!.id] } },
  clone: {
    action: true,
    body: {
      adAccountId: account!.id,
      payload: { sourceCampaignGroupId: account!.campaignGroups[0]!.id, name: "Matrix clone", status: "PAUSED" },
    },
  },
  "pixels-list": {},
  "pixel-delete": { action: true },
};

interface Case {
  name: string;
  method: string;
  path: (store: string) => string;
  scope: "none" | "reach" | "store";
  sample: Sample;
}

describe("the cross-tenant matrix, over HTTP, on every route of the route table", () => {
  let embedded: EmbeddedDashboard | undefined;
  let upstream: DemoUpstream;
  let dashboard: Dashboard;
  let dataDir: string;
  const cookies: Record<string, string> = {};
  let viewId: string;
  let grantId: string;
  let digestId: string;
  let ruleId: string;
  let notificationId: string;
  /** The victim's notes: one to change, one to delete. */
  const noteIds: Record<string, string> = {};
  let otherSessionId: string;
  const cases: Case[] = [];
  /** Every route and method of the table, with or without a session: the outsiders' matrix. */
  const everyCase: Case[] = [];
  /** What the owner planted in its store: no answer to a key outside it may contain any of these. */
  const planted: Record<string, string> = {};
  /** The outsiders' sessions: the same organization's other store, a second organization, and the keys that cannot sign in. */
  const outsiders: Record<string, string> = {};

  beforeAll(async () => {
    embedded = await startEmbeddedDashboard({
      SESSION_SECRET: "matrix-test-secret-".padEnd(48, "x"),
      TRUST_PROXY_HOPS: "1",
      DELEGATION_KEY: "matrix-master-key-".padEnd(48, "m"),
      // A key refused upstream stops reading the dashboard's own data within this time.
      KEY_RECHECK_SECONDS: "2",
    });
    ({ upstream, dashboard, dataDir } = embedded);
    let client = 0;
    for (const [name, key] of Object.entries({
      victim: ADMIN_KEY,
      spare: ADMIN_KEY,
      eu: EU_KEY,
      kumo: KUMO_KEY,
      marketer: MARKETER_KEY,
      manager: MANAGER_KEY,
    })) {
      cookies[name] = await dashboard.cookieFor(key, `198.51.100.${++client}`);
    }
    // A ring whose first key is the owner store's key that the upstream refuses later (with the manager key), holding the EU store too.
    const managerRing = await dashboard.request("/api/session/keys", {
      method: "POST",
      cookie: await dashboard.cookieFor(MANAGER_KEY, "198.51.100.42"),
      body: JSON.stringify({ apiKey: EU_KEY }),
      client: "198.51.100.42",
    });
    expect(managerRing.status, "the manager's ring takes the EU key").toBe(201);
    cookies.managerRing = cookieFrom(managerRing);
    const created = await dashboard.request(`/api/stores/${US_STORE}/saved-views`, {
      method: "POST",
      cookie: cookies.victim,
      body: JSON.stringify({ name: "The victim's view", search: "" }),
    });
    viewId = ((await created.json()) as { id: string }).id;
    DIGEST_BODY.savedViewId = viewId;
    const victimPost = async (path: string, body: unknown) =>
      (
        (await (await dashboard.request(path, { method: "POST", cookie: cookies.victim, body: JSON.stringify(body) })).json()) as {
          id: string;
        }
      ).id;
    grantId = await victimPost(`/api/stores/${US_STORE}/grants`, { consent: true });
    digestId = await victimPost(`/api/stores/${US_STORE}/digests`, DIGEST_BODY);
    // A rule that fires at once (yesterday's revenue is above 0), so the inbox has a notification of the victim's.
    ruleId = await victimPost(`/api/stores/${US_STORE}/alerts`, {
      ...ALERT_RULE,
      condition: ANY_SALE,
    });
    await dashboard.request(`/api/stores/${US_STORE}/alerts/check`, { method: "POST", cookie: cookies.victim });
    const inbox = (await (await dashboard.request("/api/notifications", { cookie: cookies.victim })).json()) as {
      notifications: { id: string }[];
    };
    notificationId = inbox.notifications[0]!.id;
    for (const method of ["PATCH", "DELETE"]) {
      const note = await dashboard.request(`/api/stores/${US_STORE}/notes`, {
        method: "POST",
        cookie: cookies.victim,
        body: JSON.stringify({ startDate: "2026-01-04", endDate: "2026-01-04", text: `The victim's note to ${method}` }),
      });
      noteIds[method] = ((await note.json()) as { id: string }).id;
    }
    const sessions = (await (await dashboard.request("/api/sessions", { cookie: cookies.spare })).json()) as {
      sessions: { id: string; current: boolean }[];
    };
    otherSessionId = sessions.sessions.find((session) => session.current)!.id;

    const table = await routeTable();
    for (const route of table.filter((candidate) => candidate.handler.spec.session)) cases.push(...casesOf(route));
    for (const route of table) everyCase.push(...casesOf(route));
    await plantTheRest();
  }, 600_000);

  /** One object of every kind in the owner's store, besides the view, grant, digest, rule, notification and notes. */
  async function plantTheRest() {
    const victim = (path: string, init: { method?: string; body?: unknown } = {}) =>
      dashboard.request(path, {
        method: init.method,
        cookie: cookies.victim,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    Object.assign(planted, { viewId, grantId, digestId, ruleId, notificationId, ...noteIds, viewName: "The victim's view" });
    planted.noteText = "The victim's note";
    expect((await dashboard.clone(cookies.victim!)).status).toBe(200);
    const activity = (await (await victim("/api/activity")).json()) as { entries: { id: string }[] };
    planted.auditId = activity.entries[0]!.id;
    planted.attemptKey = randomUUID();
    const attempt = await victim(`/api/stores/${US_STORE}/clone-attempt`, {
      method: "PUT",
      body: { request: CLONE_BODY, idempotencyKey: planted.attemptKey },
    });
    expect(attempt.status).toBeLessThan(300);
    planted.target = "987654.32";
    expect(
      (await victim(`/api/stores/${US_STORE}/targets`, { method: "PUT", body: { month: "2026-02", amount: 987654.32 } })).status,
    ).toBeLessThan(300);
    expect((await victim(`/api/stores/${US_STORE}/digests/${digestId}/send`, { method: "POST" })).status).toBe(202);
    // The digest is sent by a background run: its Outbox message and its run are the last objects planted.
    for (let waited = 0; waited < 60_000 && !planted.deliveryKey; waited += 250) {
      const outbox = (await (await victim("/api/outbox")).json()) as { messages: { key: string }[] };
      if (outbox.messages[0]) planted.deliveryKey = outbox.messages[0].key;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(planted.deliveryKey, "the digest reached the Outbox").toBeDefined();
    // The keys that cannot sign in: their sign-in is refused, and they are left with no session at all.
    for (const [name, key] of Object.entries({ legacy: LEGACY_KEY, expired: EXPIRED_KEY })) {
      const refused = await dashboard.signIn(key, "198.51.100.40");
      expect(refused.status, name).toBeGreaterThanOrEqual(400);
      expect(leaks(await refused.text()), name).toEqual([]);
      outsiders[name] = "";
    }
    outsiders["same-organization"] = cookies.eu!;
    outsiders["second-organization"] = cookies.kumo!;
  }

  /** The planted values an answer shows. */
  const leaks = (text: string) =>
    Object.entries(planted)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => name);

  afterAll(() => embedded?.close(), 60_000);

  function casesOf(route: TableRoute): Case[] {
    const id = route.path.includes("/grants/")
      ? grantId
      : route.path.includes("/digests/")
        ? digestId
        : route.path.includes("/alerts/[id]")
          ? ruleId
          : route.path.includes("/notifications/[id]")
            ? notificationId
            : viewId;
    const fill = (store: string) =>
      route.path
        .replace("[storeUrl]", encodeURIComponent(store))
        .replace("[id]", id)
        .replace("[noteId]", noteIds[route.method] ?? "")
        .replace("[token]", "an-unsubscribe-token-nobody-was-given");
    if (route.handler.spec.scope !== "by-path") {
      const sample = SAMPLES[`${route.method} ${route.path}`];
      if (!sample) throw new Error(`${route.method} ${route.path} has no sample request in the scope matrix: add one to SAMPLES`);
      const path = route.path.endsWith("/sessions/[id]") ? () => route.path.replace("[id]", otherSessionId) : fill;
      return [{ name: `${route.method} ${route.path}`, method: route.method, path, scope: route.handler.spec.scope, sample }];
    }
    return allEndpoints()
      .filter((endpoint) => endpoint.method === route.method)
      .map((endpoint: Endpoint) => {
        const sample = ENDPOINT_SAMPLES[endpoint.id];
        if (!sample) throw new Error(`endpoint ${endpoint.id} has no sample request in the scope matrix: add one to ENDPOINT_SAMPLES`);
        const isStore = endpoint.template.includes("{storeUrl}");
        return {
          name: `${endpoint.method} /api/v1${endpoint.template}`,
          method: endpoint.method,
          path: (store: string) => `/api/v1${upstreamPath(endpoint, { storeUrl: store, pixelId: "px_matrix_none" })}`,
          scope: isStore ? "store" : endpoint.id === "stores" ? "reach" : "none",
          sample,
        };
      });
  }

  function send(testCase: Case, cookie: string, store: string, { header, query }: { header?: string; query?: string } = {}) {
    const search = [testCase.sample.query, query].filter(Boolean).join("&");
    return dashboard.request(`${testCase.path(store)}${search ? `?${search}` : ""}`, {
      method: testCase.method,
      cookie,
      body: testCase.sample.body === undefined ? undefined : JSON.stringify(testCase.sample.body),
      idempotencyKey: testCase.sample.action || testCase.sample.idempotencyKey ? randomUUID() : undefined,
      headers: header ? { "x-service-organization-id": header } : undefined,
    });
  }

  /** Upstream reads other than the key checks (GET /context), by route. */
  const reads = () => Object.entries(upstream.requestCounts()).filter(([route, count]) => route !== "context" && count > 0);

  it("covers every route that needs a session", () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it("refuses another organization, another store and an invented one on every scoped route, reading nothing upstream", async () => {
    const failures: string[] = [];
    for (const testCase of cases) {
      const attacks: Attack[] =
        testCase.scope === "store"
          ? (Object.keys(STORE_ATTACKS) as Attack[])
          : testCase.scope === "reach"
            ? REACH_ATTACKS
            : ["kumo-header", "invented-org"];
      for (const attack of attacks) {
        upstream.reset();
        const response = await {
          "kumo-header": () => send(testCase, cookies.kumo!, US_STORE, { header: VICTIM_ORG }),
          "kumo-query": () => send(testCase, cookies.kumo!, US_STORE, { query: `organizationId=${VICTIM_ORG}` }),
          "kumo-plain": () => send(testCase, cookies.kumo!, US_STORE),
          "same-org-store": () => send(testCase, cookies.eu!, US_STORE),
          "missing-store": () => send(testCase, cookies.victim!, "no-such-store.example"),
          "invented-org": () => send(testCase, cookies.victim!, US_STORE, { header: "org_invented" }),
        }[attack]();
        const expected = testCase.scope === "store" ? STORE_ATTACKS[attack] : { status: 403, code: "forbidden" };
        const body = (await response.json().catch(() => ({}))) as { code?: string };
        if (response.status !== expected.status || body.code !== expected.code) {
          failures.push(
            `${testCase.name} [${attack}]: ${response.status} ${body.code ?? ""}, expected ${expected.status} ${expected.code}`,
          );
        }
        if (reads().length > 0) failures.push(`${testCase.name} [${attack}] read the upstream: ${JSON.stringify(reads())}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("shows nothing of the owner's store to any key outside it, on every route and method, by listing or by id", async () => {
    const failures: string[] = [];
    // The owner store's own key, refused upstream once signed in: its session must read nothing any more.
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: MANAGER_KEY }) });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    outsiders["refused-after-sign-in"] = cookies.manager!;
    // A key ring that held both stores reads the owner's store; once the owner store's key is removed, it is an outsider.
    const ringClient = "198.51.100.41";
    const added = await dashboard.request("/api/session/keys", {
      method: "POST",
      cookie: await dashboard.cookieFor(EU_KEY, ringClient),
      body: JSON.stringify({ apiKey: ADMIN_KEY }),
      client: ringClient,
    });
    expect(added.status, "the ring takes the owner store's key").toBe(201);
    const ring = cookieFrom(added);
    expect(leaks(await (await dashboard.request("/api/outbox", { cookie: ring })).text()), "a ring of both stores").toContain(
      "deliveryKey",
    );
    const removed = await dashboard.request("/api/session/keys/remove", {
      method: "POST",
      cookie: ring,
      body: JSON.stringify({ storeUrl: US_STORE }),
      client: ringClient,
    });
    expect(removed.status, "the owner store's key leaves the ring").toBeLessThan(300);
    outsiders["ring-with-the-store-removed"] = removed.headers.get("set-cookie") ? cookieFrom(removed) : ring;
    // The ring's cells: the signed-in key's store removed (the session goes on with the other store; the old cookie stops) …
    const signedInClient = "198.51.100.43";
    const signedInRing = await dashboard.request("/api/session/keys", {
      method: "POST",
      cookie: await dashboard.cookieFor(ADMIN_KEY, signedInClient),
      body: JSON.stringify({ apiKey: EU_KEY }),
      client: signedInClient,
    });
    expect(signedInRing.status, "the owner's ring takes the EU key").toBe(201);
    const signedInRemoved = await dashboard.request("/api/session/keys/remove", {
      method: "POST",
      cookie: cookieFrom(signedInRing),
      body: JSON.stringify({ storeUrl: US_STORE }),
      client: signedInClient,
    });
    expect(signedInRemoved.status, "the signed-in key's store leaves the ring").toBe(200);
    outsiders["ring-signed-in-key-removed"] = cookieFrom(signedInRemoved);
    outsiders["ring-signed-in-key-removed-old-copy"] = cookieFrom(signedInRing);
    // … and a ring whose first key the upstream refused (the manager key, revoked above): it keeps the EU store only.
    outsiders["ring-refused-first-key"] = cookies.managerRing!;
    expect((await dashboard.request(`/api/v1/store-data/${EU_STORE}`, { cookie: cookies.managerRing })).status).toBe(200);
    // Signing out and ending sessions come last, so that each outsider keeps its session for the rest.
    const last = (name: string) => ["DELETE /api/sessions/[id]", "DELETE /api/sessions", "DELETE /api/session"].indexOf(name) + 1;
    const ordered = [...everyCase].sort((a, b) => last(a.name) - last(b.name));
    const cells = ordered.length * Object.keys(outsiders).length;
    // The matrix's size, in the test output.
    process.stdout.write(
      `scope matrix: ${ordered.length} routes and methods x ${Object.keys(outsiders).length} outsiders = ${cells} cells\n`,
    );
    expect(ordered.length).toBeGreaterThan(cases.length);
    for (const [outsider, cookie] of Object.entries(outsiders)) {
      for (const testCase of ordered) {
        // Reads are also sent for the outsider's own store (its listings must not hold the owner's objects either).
        const own = outsider === "second-organization" ? KUMO_STORE : EU_STORE;
        for (const store of testCase.method === "GET" ? [US_STORE, own] : [US_STORE]) {
          const response = await send(testCase, cookie, store);
          const text = await response.text();
          const shown = leaks(text);
          if (shown.length > 0) failures.push(`${testCase.name} [${outsider}, ${store}]: ${response.status} shows ${shown.join(", ")}`);
          const byId = testCase.scope === "store" || testCase.name === "DELETE /api/sessions/[id]";
          if (store === US_STORE && byId && response.status < 400)
            failures.push(`${testCase.name} [${outsider}]: ${response.status} on the owner's store or session`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it("lets the read-only key reach its own store, and the upstream refuse it the actions", async () => {
    for (const testCase of cases.filter((candidate) => candidate.sample.action)) {
      const response = await send(testCase, cookies.marketer!, US_STORE);
      expect(response.status, testCase.name).toBe(403);
    }
  });

  it("answers every route in its own scope (the matrix's refusals are not a route that always refuses)", async () => {
    const failures: string[] = [];
    // A restore undoes the deletion just before it; a digest is sent before it (and its grant) are deleted; a deleted alert rule is deleted last;
    // removing the victim's own store from its ring signs it out, after everything else.
    const rank = (name: string) =>
      name === "POST /api/session/keys/remove"
        ? 3
        : name.endsWith("/restore")
          ? 1
          : /^DELETE .*\/(grants|digests|alerts)\//.test(name)
            ? 2
            : 0;
    const ordered = [...cases].sort((a, b) => rank(a.name) - rank(b.name));
    for (const testCase of ordered) {
      const response = await send(testCase, cookies.victim!, US_STORE);
      // A change of the victim's ring (adding the EU key) stops every copy of its old cookie: the victim goes on with the new one.
      if (testCase.name === "POST /api/session/keys" && response.status === 201) cookies.victim = cookieFrom(response);
      // The digest was sent a moment ago while planting: its once-a-minute limit answers 429, after finding the digest in scope.
      const limited = testCase.name.endsWith("/send") && response.status === 429;
      const text = await response.text();
      // The matrix plants no message of unknown outcome: the decision route passes its scope and then finds none.
      const noUnknownMessage =
        response.status === 404 && text.includes("This store has no message with an unknown outcome under that key.");
      if (response.status >= 400 && !limited && !(testCase.name.endsWith("{pixelId}") && response.status === 404) && !noUnknownMessage) {
        failures.push(`${testCase.name}: ${response.status} ${text}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("wrote nothing outside the victim's own organization and store", async () => {
    expect(await dashboard.stop()).toBe(0);
    const db = await openDatabase({ dataDir });
    try {
      const views = await db.query<{ organizationId: string; storeUrl: string; name: string }>(
        `select organization_id as "organizationId", store_url as "storeUrl", name from saved_views`,
      );
      expect(views.every((view) => view.organizationId === VICTIM_ORG && view.storeUrl === US_STORE)).toBe(true);
      expect(views.map((view) => view.name).sort()).toEqual(["Matrix view", "Renamed by its owner"]);
      const audited = await db.query<{ organizationId: string; storeUrl: string }>(
        `select organization_id as "organizationId", store_url as "storeUrl" from audit_entries`,
      );
      expect(audited.length).toBeGreaterThan(0);
      expect(audited.every((entry) => entry.organizationId === VICTIM_ORG && entry.storeUrl === US_STORE)).toBe(true);
      const notes = await db.query<{ organizationId: string; storeUrl: string }>(
        `select organization_id as "organizationId", store_url as "storeUrl" from notes`,
      );
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.every((note) => note.organizationId === VICTIM_ORG && note.storeUrl === US_STORE)).toBe(true);
      const attempts = await db.query<{ organizationId: string; storeUrl: string }>(
        `select organization_id as "organizationId", store_url as "storeUrl" from clone_attempts`,
      );
      expect(attempts.every((attempt) => attempt.organizationId === VICTIM_ORG && attempt.storeUrl === US_STORE)).toBe(true);
      for (const table of ["alert_rules", "notifications"]) {
        const rows = await db.query<{ organizationId: string; storeUrl: string }>(
          `select organization_id as "organizationId", store_url as "storeUrl" from ${table}`,
        );
        expect(rows.length, table).toBeGreaterThan(0);
        expect(
          rows.every((row) => row.organizationId === VICTIM_ORG && row.storeUrl === US_STORE),
          table,
        ).toBe(true);
      }
    } finally {
      await db.close();
    }
  });
});
