import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { createRule, getRule, listRules } from "@/server/alerts/rules";
import { reachDb } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { listNotifications, webhookAttempts } from "@/server/alerts/notifications";
import { registerAlertJobs } from "@/server/alerts/jobs";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { LIMITS } from "@/shared/limits";
import { activityResponseSchema } from "@/shared/schemas/activity";
import { alertRuleListSchema, alertRuleSchema, type AlertRuleInput } from "@/shared/schemas/alert";
import { storeRule, UNDER_ONE } from "@/test/alert-rules";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, MARKETER_KEY, sessionRequest, US_STORE, useUpstream } from "@/test/harness";
import { signInEach, type SignedIn } from "@/test/signed-in";
import {
  checkAlertRules,
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  muteAlertRule,
  snoozeAlertRule,
  updateAlertRule,
} from "./alerts";
import { activity } from "./activity";

/** Alert rules over their routes, as the pages call them. */
const MANAGER_KEY = "sk_demo_manager_nw_us_7c2e5a90f3b1";
const BASE = `/api/stores/${US_STORE}`;
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const scope = { organizationId: ORGANIZATION, storeUrl: US_STORE };
const env = { DELEGATION_KEY: "alert-routes-master-key-".padEnd(48, "k") };

let upstream: DemoUpstream;
let db: Db;
let cookies: SignedIn["cookies"];
let emails: SignedIn["emails"];

const ruleInput = (overrides: Partial<AlertRuleInput> = {}): AlertRuleInput =>
  storeRule(unique("Revenue"), UNDER_ONE, { emails: ["ops@example.com"], ...overrides });

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl, env);
  db = reachDb(await database(), [US_STORE]);
  ({ cookies, emails } = await signInEach({ admin: ADMIN_KEY, marketer: MARKETER_KEY, manager: MANAGER_KEY }));
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl, env));
afterEach(() => vi.unstubAllEnvs());

describe("whose rule it is", () => {
  it("only its owner changes what it reads and where it sends, or deletes it; admins may pause it; the secret is the owner's", async () => {
    const input = ruleInput({ webhookUrl: "https://hooks.example.com/ops" });
    const created = await callRoute(createAlertRule, sessionRequest("POST", `${BASE}/alerts`, cookies.admin!, input));
    expect(created.status).toBe(201);
    const rule = alertRuleSchema.parse(await created.json());
    expect(rule.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(rule.standardWebhookSecret).toBe(`whsec_${Buffer.from(rule.webhookSecret!).toString("base64")}`);
    const one = `${BASE}/alerts/${rule.id}`;

    // Others of the organization see it, without its signing secret.
    const seen = alertRuleSchema.parse(await (await callRoute(getAlertRule, sessionRequest("GET", one, cookies.marketer!))).json());
    expect(seen).toMatchObject({ id: rule.id, createdByEmail: emails.admin, webhookSecret: null, standardWebhookSecret: null });
    const listed = alertRuleListSchema.parse(
      await (await callRoute(listAlertRules, sessionRequest("GET", `${BASE}/alerts`, cookies.manager!))).json(),
    );
    expect(listed.rules.find((candidate) => candidate.id === rule.id)!.webhookSecret).toBeNull();

    // Nobody else rewires it or deletes it, whatever their role.
    const rewired = { ...input, emails: ["attacker@example.com"], webhookUrl: "https://attacker.example/hook" };
    for (const who of ["marketer", "manager"]) {
      const refused = await callRoute(updateAlertRule, sessionRequest("PUT", one, cookies[who]!, rewired));
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toBe(
        `Only ${emails.admin} may change what this alert rule reads and where it sends: it reads and sends through their grant. You may copy it under your own grant.`,
      );
      expect((await callRoute(deleteAlertRule, sessionRequest("DELETE", one, cookies[who]!))).status).toBe(403);
    }
    // A member may not pause it; an admin of the organization may.
    const muted = await callRoute(muteAlertRule, sessionRequest("POST", `${one}/mute`, cookies.marketer!, { muted: true }));
    expect(muted.status).toBe(403);
    expect((await muted.json()).error).toContain("or an admin of the organization may mute or snooze it");
    expect((await callRoute(snoozeAlertRule, sessionRequest("POST", `${one}/snooze`, cookies.marketer!, { minutes: 60 }))).status).toBe(
      403,
    );
    const paused = await callRoute(muteAlertRule, sessionRequest("POST", `${one}/mute`, cookies.manager!, { muted: true }));
    expect(paused.status).toBe(200);
    expect(alertRuleSchema.parse(await paused.json())).toMatchObject({ muted: true, webhookSecret: null });

    const stored = await getRule(db, scope, rule.id);
    expect(stored!.definition).toEqual(input);
    // A copy under one's own grant is one's own.
    const copy = await callRoute(
      createAlertRule,
      sessionRequest("POST", `${BASE}/alerts`, cookies.marketer!, { ...input, name: `${input.name} (copy)` }),
    );
    expect(alertRuleSchema.parse(await copy.json())).toMatchObject({ createdByEmail: emails.marketer, webhookSecret: expect.any(String) });

    const changed = await callRoute(updateAlertRule, sessionRequest("PUT", one, cookies.admin!, { ...input, emails: ["cfo@example.com"] }));
    expect(changed.status).toBe(200);
    expect((await callRoute(deleteAlertRule, sessionRequest("DELETE", one, cookies.admin!))).status).toBe(200);

    // The Activity page lists each change with who made it; the refused attempts changed nothing and are not there.
    const page = activityResponseSchema.parse(
      await (await callRoute(activity, sessionRequest("GET", "/api/activity", cookies.marketer!))).json(),
    );
    const ofRule = page.entries.filter((entry) => entry.target.ruleId === rule.id).reverse();
    expect(ofRule.map((entry) => [entry.action, entry.userEmail, entry.target.change ?? null, entry.storeUrl])).toEqual([
      ["alert-rule.create", emails.admin, null, US_STORE],
      ["alert-rule.pause", emails.manager, "muted", US_STORE],
      ["alert-rule.change", emails.admin, "Changed: e-mail addresses", US_STORE],
      ["alert-rule.delete", emails.admin, null, US_STORE],
    ]);
    expect(ofRule.every((entry) => entry.target.ruleName === input.name && entry.targetIds[0] === rule.id)).toBe(true);
  });
});

describe("Check now", () => {
  it("answers once the rules are judged; their webhooks go to the queue, which posts them", async () => {
    vi.stubEnv("WEBHOOK_TIMEOUT_MS", "3000");
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "1");
    // A receiver that holds every request without an answer until told to answer.
    let answer = false;
    const arrived: string[] = [];
    const held: ServerResponse[] = [];
    const receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        arrived.push(request.headers["x-dashboard-delivery"] as string);
        if (answer) response.end("ok");
        else held.push(response);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const input = ruleInput({ condition: { kind: "threshold", operator: "above", threshold: 0 }, emails: [], webhookUrl });
      const rule = alertRuleSchema.parse(
        await (await callRoute(createAlertRule, sessionRequest("POST", `${BASE}/alerts`, cookies.admin!, input))).json(),
      );

      const started = performance.now();
      const checked = await callRoute(checkAlertRules, sessionRequest("POST", `${BASE}/alerts/check`, cookies.admin!));
      const took = performance.now() - started;
      expect(checked.status).toBe(200);
      expect(await checked.json()).toMatchObject({ fired: 1 });
      // Less than one webhook timeout, let alone its retries; nothing was posted during the answer.
      expect(took).toBeLessThan(3_000);
      expect(arrived).toEqual([]);
      const [notification] = (await listNotifications(db, [US_STORE], emails.admin!)).filter((n) => n.ruleId === rule.id);
      const [job] = await db.query<{ state: string }>("select state from jobs where unique_key = $1", [
        `alerts.webhook:${notification!.id}`,
      ]);
      expect(job).toEqual({ state: "queued" });

      // The background worker posts it and records the attempt.
      answer = true;
      registerAlertJobs();
      startBackgroundWork({ pollMs: 50 });
      await vi.waitFor(
        async () => expect(await webhookAttempts(db, notification!.id)).toEqual([{ attempt: 1, outcome: "sent", status: 200 }]),
        {
          timeout: 10_000,
        },
      );
      expect(arrived).toEqual([notification!.id]);
      await callRoute(deleteAlertRule, sessionRequest("DELETE", `${BASE}/alerts/${rule.id}`, cookies.admin!));
    } finally {
      await stopBackgroundWork();
      for (const response of held) response.destroy();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe("a rule's own page", () => {
  it("holds its state and its episodes, newest first, each with its value and whether it still lasts", async () => {
    const input = ruleInput({ condition: { kind: "threshold", operator: "above", threshold: 0 }, emails: [] });
    const rule = alertRuleSchema.parse(
      await (await callRoute(createAlertRule, sessionRequest("POST", `${BASE}/alerts`, cookies.admin!, input))).json(),
    );
    const before = alertRuleSchema.parse(
      await (await callRoute(getAlertRule, sessionRequest("GET", `${BASE}/alerts/${rule.id}`, cookies.admin!))).json(),
    );
    expect(before.episodes).toEqual([]);
    expect(await (await callRoute(checkAlertRules, sessionRequest("POST", `${BASE}/alerts/check`, cookies.admin!))).json()).toMatchObject({
      fired: expect.any(Number),
    });
    // Anyone of the store sees it, not only its owner.
    const after = alertRuleSchema.parse(
      await (await callRoute(getAlertRule, sessionRequest("GET", `${BASE}/alerts/${rule.id}`, cookies.marketer!))).json(),
    );
    expect(after.state).toBe("firing");
    expect(after.episodes).toHaveLength(1);
    expect(after.episodes![0]).toMatchObject({ resolvedPeriod: null, resolvedAt: null });
    expect(after.episodes![0]!.value).toBeGreaterThan(0);
    expect(after.episodes![0]!.openedPeriod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The list stays light: episodes are the rule page's alone.
    const list = alertRuleListSchema.parse(
      await (await callRoute(listAlertRules, sessionRequest("GET", `${BASE}/alerts`, cookies.admin!))).json(),
    );
    expect(list.rules.find((candidate) => candidate.id === rule.id)?.episodes).toBeUndefined();
    await callRoute(deleteAlertRule, sessionRequest("DELETE", `${BASE}/alerts/${rule.id}`, cookies.admin!));
  });
});

describe("what a store holds", () => {
  it(`refuses a rule past ${LIMITS.rulesPerStore} per store, and more than ${LIMITS.recipients} addresses, in words`, async () => {
    const tooMany = await callRoute(
      createAlertRule,
      sessionRequest(
        "POST",
        `${BASE}/alerts`,
        cookies.admin!,
        ruleInput({ emails: Array.from({ length: LIMITS.recipients + 1 }, (_, i) => `r${i}@example.com`) }),
      ),
    );
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error).toContain(`A rule e-mails at most ${LIMITS.recipients} addresses.`);

    for (let count = (await listRules(db, scope)).length; count < LIMITS.rulesPerStore; count += 1)
      await createRule(db, scope, ruleInput(), emails.marketer!, new Date());
    const refused = await callRoute(createAlertRule, sessionRequest("POST", `${BASE}/alerts`, cookies.admin!, ruleInput()));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: "limit_reached",
      error: `A store holds at most ${LIMITS.rulesPerStore} alert rules. Delete one before adding another.`,
    });
    expect((await listRules(db, scope)).length).toBe(LIMITS.rulesPerStore);
  });
});
