import { chmodSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard, type ErrorBody } from "@/test/dashboard-instances";
import { ADMIN_KEY, MARKETER_KEY, US_STORE } from "@/test/harness";
import { newLocation, type Location } from "@/test/databases";
import { copyOfTemplate } from "@/test/pglite-template";
import { ensureBuild, ROOT } from "@/test/processes";

/**
 * What a colleague or a stranger tries, over real HTTP against a production dashboard process
 * (docs/security.md lists each promise with its test here): the key ring without a first key,
 * other people's opt-outs, alert mail over time, deep JSON, names that are layout, caps under
 * concurrency, grants that keep their owner, the embedded database's file modes, and a release
 * the server never writes into.
 */
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const EU_STORE = "northwind-eu.myshopify.com";
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const KUMO_KEY = "sk_demo_admin_kumo_jp_3c9e71f4b2a5";
const KUMO_STORE = describeDemo().keys.find((key) => key.key === KUMO_KEY)!.storeUrl!;
const MAIL_PER_HOUR = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RULE = {
  name: "Revenue above nothing",
  metric: "revenue",
  target: { kind: "store" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "threshold", operator: "above", threshold: 0 },
  emails: [] as string[],
  webhookUrl: null,
};

/** Every file and folder under `dir` with its mode. */
function modes(dir: string): { path: string; mode: number; folder: boolean }[] {
  return [dir, ...readdirSync(dir, { recursive: true }).map((name) => join(dir, String(name)))].map((path) => {
    const stat = statSync(path);
    return { path, mode: stat.mode & 0o777, folder: stat.isDirectory() };
  });
}

/** Every file of a folder with its size and modification time: what a write would change. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => `${path} ${statSync(path, { throwIfNoEntry: false })?.mtimeMs}`)
    .sort();
}

describe("promises a colleague or a stranger cannot break, against a production dashboard", () => {
  let upstream: DemoUpstream;
  let dashboard: Dashboard;
  let dataDir: string;
  let client = 0;
  const nextClient = () => `203.0.113.${++client}`;
  const signIn = (key: string) => dashboard.cookieFor(key, nextClient());
  const release = realpathSync(join(ROOT, ".releases/current"));
  let releaseBefore: string[];

  /** The cookies of an answer that sets them, joined as a browser sends them back. */
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((value) => value.split(";")[0]!)
      .filter((pair) => !pair.endsWith("="))
      .join("; ");
  const post = (path: string, cookie: string, body: unknown, headers?: Record<string, string>) =>
    dashboard.request(path, { method: "POST", cookie, body: JSON.stringify(body), headers });
  const addKey = (cookie: string, apiKey: string) => post("/api/session/keys", cookie, { apiKey });
  const removeStore = (cookie: string, storeUrl: string) => post("/api/session/keys/remove", cookie, { storeUrl });
  const storeProfile = (cookie: string, store: string) => dashboard.request(`/api/v1/store-data/${encodeURIComponent(store)}`, { cookie });
  const ringStores = async (cookie: string) => {
    const body = (await (await dashboard.request("/api/session", { cookie })).json()) as { session: { keys: { storeUrls: string[] }[] } };
    return body.session.keys.flatMap((key) => key.storeUrls).sort();
  };

  beforeAll(async () => {
    ensureBuild();
    releaseBefore = snapshot(release);
    upstream = await startDemoUpstream({ port: 0, control: true });
    dataDir = copyOfTemplate();
    chmodSync(dataDir, 0o755);
    dashboard = await Dashboard.create({
      UPSTREAM_BASE_URL: upstream.baseUrl,
      SESSION_SECRET: "promises-test-secret-".padEnd(48, "x"),
      DELEGATION_KEY: "promises-master-key-".padEnd(48, "m"),
      EMBEDDED_DATABASE: "1",
      DATA_DIR: dataDir,
      TRUST_PROXY_HOPS: "1",
      KEY_RECHECK_SECONDS: "2",
      ALERT_MAIL_PER_HOUR: String(MAIL_PER_HOUR),
    });
    await dashboard.start();
  }, 600_000);

  afterAll(async () => {
    await dashboard?.kill();
    await upstream?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  describe("the key ring has no first key", () => {
    it("removing the signed-in store keeps the session on the others, and every copy of the old cookie stops at once", async () => {
      const added = await addKey(await signIn(ADMIN_KEY), EU_KEY);
      expect(added.status).toBe(201);
      const both = cookiesOf(added);
      const removed = await removeStore(both, US_STORE);
      expect(removed.status).toBe(200);
      const after = cookiesOf(removed);
      expect(await ringStores(after)).toEqual([EU_STORE]);
      expect((await storeProfile(after, EU_STORE)).status).toBe(200);
      expect((await storeProfile(after, US_STORE)).status).toBe(404);
      for (const path of ["/api/session", `/api/v1/store-data/${EU_STORE}`, "/api/activity"]) {
        const old = await dashboard.request(path, { cookie: both });
        expect(old.status, path).toBe(401);
        expect(((await old.json()) as ErrorBody).code, path).toBe("ring_changed");
        // A call that left before the change answers after it: its answer leaves the browser's
        // newer cookie alone, so the session goes on in the browser that changed the ring.
        expect(old.headers.getSetCookie(), path).toEqual([]);
      }
      // The old copy cannot change the ring either (re-adding the removed key from it).
      expect((await addKey(both, ADMIN_KEY)).status).toBe(401);
      const last = await removeStore(after, EU_STORE);
      expect(last.status).toBe(204);
      expect((await dashboard.request("/api/session", { cookie: after })).status).toBe(401);
    });

    it("drops a key refused upstream alone: the next key added keeps the rest", async () => {
      const ring = cookiesOf(await addKey(await signIn(MANAGER_KEY), EU_KEY));
      await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: MANAGER_KEY }) });
      await sleep(2_500);
      expect((await storeProfile(ring, US_STORE)).status).toBe(404);
      expect(await ringStores(ring)).toEqual([EU_STORE]);
      const added = await addKey(ring, KUMO_KEY);
      expect(added.status).toBe(201);
      const grown = cookiesOf(added);
      expect(await ringStores(grown)).toEqual([EU_STORE, KUMO_STORE].sort());
      upstream.reset();
      for (const store of [EU_STORE, KUMO_STORE]) expect((await storeProfile(grown, store)).status, store).toBe(200);
      expect(upstream.keyUses().map((use) => [use.storeUrl, use.key])).toEqual([
        [EU_STORE, "Admin — Northwind EU"],
        [KUMO_STORE, describeDemo().keys.find((key) => key.key === KUMO_KEY)!.label],
      ]);
    });

    it("calls the upstream with the key of the store it names, and stores each grant under the key it seals", async () => {
      const both = cookiesOf(await addKey(await signIn(ADMIN_KEY), EU_KEY));
      const again = cookiesOf(await addKey(cookiesOf(await removeStore(both, US_STORE)), ADMIN_KEY));
      upstream.reset();
      for (const store of [US_STORE, EU_STORE]) expect((await storeProfile(again, store)).status, store).toBe(200);
      expect(upstream.keyUses().map((use) => [use.storeUrl, use.key])).toEqual([
        [US_STORE, "Admin — Northwind US"],
        [EU_STORE, "Admin — Northwind EU"],
      ]);
      const grant = await post(`/api/stores/${EU_STORE}/grants`, again, { consent: true });
      expect(grant.status).toBe(201);
      // "mine": the grant's fingerprint is the fingerprint of the EU store's own key.
      expect(((await grant.json()) as { mine: boolean }).mine).toBe(true);
      const listed = (await (await dashboard.request(`/api/stores/${EU_STORE}/grants`, { cookie: again })).json()) as {
        grants: { mine: boolean; endedAt: string | null }[];
      };
      expect(listed.grants.filter((item) => !item.endedAt).every((item) => item.mine)).toBe(true);
    });

    it("lists and ends only the sessions of the keys a session still holds", async () => {
      const sessionsOf = async (cookie: string) =>
        ((await (await dashboard.request("/api/sessions", { cookie })).json()) as { sessions: { id: string; current: boolean }[] })
          .sessions;
      const usOnly = await signIn(ADMIN_KEY);
      const usOnlyId = (await sessionsOf(usOnly)).find((session) => session.current)!.id;
      const euOnly = await signIn(EU_KEY);
      const euOnlyId = (await sessionsOf(euOnly)).find((session) => session.current)!.id;
      const moved = cookiesOf(await removeStore(cookiesOf(await addKey(await signIn(ADMIN_KEY), EU_KEY)), US_STORE));
      const listed = (await sessionsOf(moved)).map((session) => session.id);
      expect(listed).toContain(euOnlyId);
      expect(listed).not.toContain(usOnlyId);
      expect((await dashboard.request(`/api/sessions/${usOnlyId}`, { method: "DELETE", cookie: moved })).status).toBe(404);
      await dashboard.request("/api/sessions", { method: "DELETE", cookie: moved });
      expect((await dashboard.request("/api/session", { cookie: usOnly })).status).toBe(200);
      expect((await dashboard.request("/api/session", { cookie: euOnly })).status).toBe(401);
    });
  });

  describe("only an address lifts its own opt-out", () => {
    let admin: string;
    let own: string;
    let token: string;

    beforeAll(async () => {
      admin = await signIn(ADMIN_KEY);
      own = ((await (await dashboard.request("/api/session", { cookie: admin })).json()) as { session: { user: { email: string } } })
        .session.user.email;
      expect((await post(`/api/stores/${US_STORE}/grants`, admin, { consent: true })).status).toBe(201);
      const rule = await post(`/api/stores/${US_STORE}/alerts`, admin, {
        ...RULE,
        name: "Opt-out rule",
        emails: [own, "colleague@example.com"],
      });
      expect(rule.status).toBe(201);
      expect((await dashboard.request(`/api/stores/${US_STORE}/alerts/check`, { method: "POST", cookie: admin })).status).toBe(200);
      for (let waited = 0; waited < 60_000 && !token; waited += 250) {
        const outbox = (await (await dashboard.request("/api/outbox", { cookie: admin })).json()) as {
          messages: { recipient: string; text: string }[];
        };
        token = /\/api\/unsubscribe\/([\w-]{32})/.exec(outbox.messages.find((message) => message.recipient === own)?.text ?? "")?.[1] ?? "";
        if (!token) await sleep(250);
      }
      expect(token).toMatch(/^[\w-]{32}$/);
    }, 120_000);

    it("shows no one another recipient's unsubscribe link in the Outbox, whatever key reads it", async () => {
      for (const cookie of [admin, await signIn(MARKETER_KEY)]) {
        const outbox = (await (await dashboard.request("/api/outbox", { cookie })).json()) as {
          messages: { recipient: string; html: string; text: string; headers: Record<string, string> }[];
        };
        const others = outbox.messages.filter((message) => message.recipient === "colleague@example.com");
        expect(others.length).toBeGreaterThan(0);
        for (const message of others) expect(JSON.stringify(message)).not.toMatch(/\/api\/unsubscribe\/[\w-]{32}\b/);
      }
    });

    it("refuses a bare cross-site POST that subscribes again; the page's own button, with its proof, does", async () => {
      const page = (init: { method?: string; body?: string; origin?: string } = {}) =>
        fetch(`${dashboard.origin}/api/unsubscribe/${token}`, {
          method: init.method ?? "GET",
          body: init.body,
          headers: { "content-type": "application/x-www-form-urlencoded", ...(init.origin ? { origin: init.origin } : {}) },
        });
      expect((await page({ method: "POST", body: "List-Unsubscribe=One-Click", origin: "https://mail.example" })).status).toBe(200);
      const bare = await page({ method: "POST", body: "action=subscribe", origin: "https://evil.example" });
      expect(bare.status).toBe(403);
      const shown = await (await page()).text();
      expect(shown).toContain("receives no mail");
      const proof = /name="proof" value="([^"]+)"/.exec(shown)![1]!;
      const forged = await page({
        method: "POST",
        body: `action=subscribe&proof=${encodeURIComponent(proof)}`,
        origin: "https://evil.example",
      });
      expect(forged.status).toBe(403);
      expect(await (await page()).text()).toContain("receives no mail");
      const mine = await page({ method: "POST", body: `action=subscribe&proof=${encodeURIComponent(proof)}`, origin: dashboard.origin });
      expect(await mine.text()).toContain("You are subscribed again");
    });

    it("writes no token in any log line, whatever the method", async () => {
      for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
        await fetch(`${dashboard.origin}/api/unsubscribe/${token}`, { method, headers: { origin: "https://mail.example" } });
      await sleep(300);
      expect(dashboard.script!.output()).not.toContain(token);
    });
  });

  describe("alert e-mail is capped per store per hour", () => {
    it("sends at most ALERT_MAIL_PER_HOUR alert e-mails a store an hour, whatever rules are deleted and made again; the inbox keeps every alert", async () => {
      const eu = await signIn(EU_KEY);
      expect((await post(`/api/stores/${EU_STORE}/grants`, eu, { consent: true })).status).toBe(201);
      for (let cycle = 0; cycle < 2; cycle++) {
        const ids: string[] = [];
        for (let index = 0; index < 2; index++) {
          const emails = [1, 2, 3].map((n) => `cycle${cycle}-rule${index}-${n}@example.com`);
          const rule = await post(`/api/stores/${EU_STORE}/alerts`, eu, { ...RULE, name: `Flood ${cycle}.${index}`, emails });
          expect(rule.status).toBe(201);
          ids.push(((await rule.json()) as { id: string }).id);
        }
        expect((await dashboard.request(`/api/stores/${EU_STORE}/alerts/check`, { method: "POST", cookie: eu })).status).toBe(200);
        await sleep(4_000);
        for (const id of ids) await dashboard.request(`/api/stores/${EU_STORE}/alerts/${id}`, { method: "DELETE", cookie: eu });
      }
      const outbox = (await (await dashboard.request(`/api/outbox?store=${EU_STORE}`, { cookie: eu })).json()) as {
        messages: { key: string }[];
      };
      expect(outbox.messages.filter((message) => message.key.startsWith("alert:"))).toHaveLength(MAIL_PER_HOUR);
      const inbox = (await (await dashboard.request(`/api/notifications?store=${EU_STORE}`, { cookie: eu })).json()) as {
        notifications: unknown[];
      };
      expect(inbox.notifications.length).toBeGreaterThanOrEqual(4);
      const runs = (await (await dashboard.request(`/api/runs?store=${EU_STORE}`, { cookie: eu })).json()) as {
        runs: { name: string; state: string; detail: string | null }[];
      };
      expect(runs.runs.some((run) => run.name === "alerts.held-summary" && run.state === "queued")).toBe(true);
      expect(runs.runs.some((run) => /held back \(ALERT_MAIL_PER_HOUR\)/.test(run.detail ?? ""))).toBe(true);
    }, 120_000);
  });

  describe("bodies are checked for depth before anything walks them", () => {
    /** Nested arrays as deep as a body of `bytes` allows: 64 KB for actions, 16 KB for sign-in and the ring. */
    const deep = (bytes: number) => "[".repeat(bytes / 2 - 100) + "]".repeat(bytes / 2 - 100);

    it("answers 400 naming the limit on every route that takes a body, sign-in included, and fast", async () => {
      const admin = await signIn(ADMIN_KEY);
      const routes = [
        `/api/stores/${US_STORE}/alerts`,
        `/api/stores/${US_STORE}/saved-views`,
        `/api/stores/${US_STORE}/notes`,
        `/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`,
        "/api/session/keys",
      ];
      for (const path of [...routes, "/api/session"]) {
        const response = await dashboard.request(path, {
          method: "POST",
          cookie: path === "/api/session" ? undefined : admin,
          body: deep(path.startsWith("/api/session") ? 16_384 : 65_536),
          idempotencyKey: crypto.randomUUID(),
        });
        expect(response.status, path).toBe(400);
        expect(((await response.json()) as { error: string }).error, path).toMatch(/deeper than 64 levels/);
      }
      // Each refusal's time in the server, as its log line says (the figure docs/security.md gives).
      const durations = dashboard
        .script!.output()
        .split("\n")
        .filter((line) => line.includes('"msg":"request"') && line.includes('"status":400'))
        .map((line) => (JSON.parse(line) as { durationMs: number }).durationMs);
      process.stdout.write(`deep bodies refused in ${durations.join(", ")} ms\n`);
      expect(durations.length).toBeGreaterThanOrEqual(routes.length);
      expect(Math.max(...durations)).toBeLessThan(250);
    });

    it("keeps liveness answering while deep sign-ins arrive, and counts them against the sign-in limit", async () => {
      const from = nextClient();
      const inFlight = Array.from({ length: 5 }, () =>
        dashboard.request("/api/session", { method: "POST", body: deep(16_384), client: from }).then((response) => response.status),
      );
      const started = performance.now();
      expect((await dashboard.request("/api/health/live")).status).toBe(200);
      const liveMs = performance.now() - started;
      expect(await Promise.all(inFlight)).toEqual([400, 400, 400, 400, 400]);
      expect(liveMs).toBeLessThan(1_000);
      for (let index = 0; index < 5; index++) await dashboard.request("/api/session", { method: "POST", body: "{", client: from });
      const limited = await dashboard.signIn(ADMIN_KEY, from);
      expect(limited.status).toBe(429);
    });
  });

  describe("names are text, not layout", () => {
    it("refuses the Unicode line and paragraph separators and direction marks in every name and note", async () => {
      const admin = await signIn(ADMIN_KEY);
      const cases: [string, unknown][] = [
        [`/api/stores/${US_STORE}/alerts`, { ...RULE, name: "Revenue\u2028Bcc: everyone" }],
        [`/api/stores/${US_STORE}/saved-views`, { name: "Weekly\u2029view", search: "" }],
        [`/api/stores/${US_STORE}/saved-views`, { name: "\u200fweiv", search: "" }],
        [`/api/stores/${US_STORE}/notes`, { startDate: "2026-01-05", endDate: "2026-01-05", text: "Launch\u2028day" }],
        [`/api/stores/${US_STORE}/notes`, { startDate: "2026-01-05", endDate: "2026-01-05", text: "Launch\tday" }],
      ];
      for (const [path, body] of cases) expect((await post(path, admin, body)).status, JSON.stringify(body)).toBe(400);
    });
  });

  describe("caps hold under concurrency", () => {
    // On PostgreSQL when TEST_DATABASE_URL names one (as production runs several instances on it), else the embedded database.
    let capped: Dashboard;
    let location: Location | undefined;
    beforeAll(async () => {
      if (!process.env.TEST_DATABASE_URL) return void (capped = dashboard);
      location = await newLocation("postgres");
      capped = await Dashboard.create({
        UPSTREAM_BASE_URL: upstream.baseUrl,
        SESSION_SECRET: "promises-test-secret-".padEnd(48, "x"),
        DATABASE_URL: location.url!,
        DELEGATION_KEY: "promises-master-key-".padEnd(48, "m"),
        TRUST_PROXY_HOPS: "1",
      });
      await capped.start();
    }, 300_000);
    afterAll(async () => {
      if (capped !== dashboard) await capped?.kill();
      await location?.drop();
    });

    it("keeps a store at 50 alert rules when 30 creations race from 45", async () => {
      const ring = await capped.cookieFor(KUMO_KEY, nextClient());
      const post = (path: string, cookie: string, body: unknown) =>
        capped.request(path, { method: "POST", cookie, body: JSON.stringify(body) });
      const count = async () =>
        ((await (await capped.request(`/api/stores/${KUMO_STORE}/alerts`, { cookie: ring })).json()) as { rules: unknown[] }).rules.length;
      const create = (name: string) => post(`/api/stores/${KUMO_STORE}/alerts`, ring, { ...RULE, name });
      for (let index = await count(); index < 45; index++) expect((await create(`Rule ${index}`)).status).toBe(201);
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, index) => create(`Racing ${index}`).then((r) => r.status)));
      expect(statuses.filter((status) => status === 201)).toHaveLength(5);
      expect(statuses.filter((status) => status === 409)).toHaveLength(25);
      expect(await count()).toBe(50);
    }, 120_000);

    it("keeps a store at 50 scheduled digests when 30 schedulings race from 40", async () => {
      const cookie = await capped.cookieFor(KUMO_KEY, nextClient());
      const send = (path: string, body: unknown) => capped.request(path, { method: "POST", cookie, body: JSON.stringify(body) });
      const view = (await (await send(`/api/stores/${KUMO_STORE}/saved-views`, { name: "Digest race", search: "" })).json()) as {
        id: string;
      };
      expect((await send(`/api/stores/${KUMO_STORE}/grants`, { consent: true })).status).toBe(201);
      const schedule = () =>
        send(`/api/stores/${KUMO_STORE}/digests`, {
          savedViewId: view.id,
          cadence: "daily",
          localTime: "07:00",
          recipients: ["team@example.com"],
        });
      for (let index = 0; index < 40; index++) expect((await schedule()).status).toBe(201);
      const statuses = await Promise.all(Array.from({ length: 30 }, () => schedule().then((response) => response.status)));
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      const listed = (await (await capped.request(`/api/stores/${KUMO_STORE}/digests`, { cookie })).json()) as { digests: unknown[] };
      expect(listed.digests).toHaveLength(50);
    }, 180_000);

    it("lets at most 10 of 30 concurrent failed sign-ins of one client reach the upstream", async () => {
      const from = nextClient();
      upstream.reset();
      const statuses = await Promise.all(
        Array.from({ length: 30 }, () => capped.signIn("sk_demo_not_a_key_000000000000", from).then((response) => response.status)),
      );
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
      expect(upstream.requestCounts().context ?? 0).toBeLessThanOrEqual(10);
    });

    it("adds one key to a ring when 30 additions race from one cookie", async () => {
      const cookie = await capped.cookieFor(ADMIN_KEY, nextClient());
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          capped.request("/api/session/keys", { method: "POST", cookie, body: JSON.stringify({ apiKey: EU_KEY }) }),
        ),
      );
      const added = answers.filter((response) => response.status === 201);
      expect(added).toHaveLength(1);
      expect(answers.filter((response) => response.status === 409)).toHaveLength(29);
      const ring = (await (await capped.request("/api/session", { cookie: cookiesOf(added[0]!) })).json()) as {
        session: { keys: { storeUrls: string[] }[] };
      };
      expect(ring.session.keys.flatMap((key) => key.storeUrls).sort()).toEqual([EU_STORE, US_STORE].sort());
    });
  });

  describe("grants keep their owner", () => {
    it("gives a colleague renewing with the same key a grant of their own", async () => {
      // Kumo's admin holds the US admin key in a ring: its grant of the US store is theirs.
      const kumo = cookiesOf(await addKey(await signIn(KUMO_KEY), ADMIN_KEY));
      expect((await post(`/api/stores/${US_STORE}/grants`, kumo, { consent: true })).status).toBe(201);
      const maya = await signIn(ADMIN_KEY);
      expect((await post(`/api/stores/${US_STORE}/grants`, maya, { consent: true })).status).toBe(201);
      expect((await post(`/api/stores/${US_STORE}/grants`, maya, { consent: true })).status).toBe(201);
      const grants = (await (await dashboard.request(`/api/stores/${US_STORE}/grants`, { cookie: maya })).json()) as {
        grants: { ownerEmail: string; endedAt: string | null }[];
      };
      const owners = grants.grants.filter((grant) => !grant.endedAt).map((grant) => grant.ownerEmail);
      const kumoEmail = (
        (await (await dashboard.request("/api/session", { cookie: kumo })).json()) as { session: { user: { email: string } } }
      ).session.user.email;
      expect(owners).toContain(kumoEmail);
      expect(new Set(owners).size).toBe(owners.length);
    });
  });

  describe("the embedded database is private and the release is never written", () => {
    it("keeps DATA_DIR at 0700 and its files at 0600, even when it started readable by others", () => {
      const loose = modes(dataDir).filter(({ mode, folder }) => mode !== (folder ? 0o700 : 0o600));
      expect(loose).toEqual([]);
      expect(dashboard.script!.output()).toContain(`DATA_DIR ${dataDir} was readable by others: it is now private`);
    });

    it("writes nothing into the release, the 404 page included", async () => {
      for (const path of ["/no-such-page", "/no/such/page", "/sign-in", "/api/no-such-route"]) await dashboard.request(path);
      expect(snapshot(release)).toEqual(releaseBefore);
    });
  });
});
