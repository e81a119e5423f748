import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { createRule, listRules } from "@/server/db/alert-rules";
import { database, type Db } from "@/server/db/database";
import { LIMITS } from "@/shared/limits";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, cookieFrom, dashboardRequest, MARKETER_KEY, US_STORE, useUpstream } from "@/test/harness";
import { createAlertRule } from "./alerts";
import { signIn } from "./sign-in";

/** Alert rules over their routes, as the pages call them. */
const BASE = `/api/stores/${US_STORE}`;
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const scope = { organizationId: ORGANIZATION, storeUrl: US_STORE };
const env = { DELEGATION_KEY: "alert-routes-master-key-".padEnd(48, "k") };

let upstream: DemoUpstream;
let db: Db;
const cookies: Record<string, string> = {};
const emails: Record<string, string> = {};

const json = (method: string, path: string, cookie: string, body?: unknown) =>
  dashboardRequest(path, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });

const ruleInput = (overrides: Partial<AlertRuleInput> = {}): AlertRuleInput => ({
  name: unique("Revenue"),
  metric: "revenue",
  target: { kind: "store" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "threshold", operator: "below", threshold: 1 },
  emails: ["ops@example.com"],
  webhookUrl: null,
  ...overrides,
});

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl, env);
  db = await database();
  for (const [name, apiKey] of Object.entries({ admin: ADMIN_KEY, marketer: MARKETER_KEY })) {
    const signedIn = await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) }));
    cookies[name] = cookieFrom(signedIn);
    emails[name] = ((await signedIn.json()) as { session: { user: { email: string } } }).session.user.email;
  }
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl, env));
afterEach(() => vi.unstubAllEnvs());

describe("what a store holds", () => {
  it(`refuses a rule past ${LIMITS.rulesPerStore} per store, and more than ${LIMITS.recipients} addresses, in words`, async () => {
    const tooMany = await callRoute(
      createAlertRule,
      json(
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
    const refused = await callRoute(createAlertRule, json("POST", `${BASE}/alerts`, cookies.admin!, ruleInput()));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: "limit_reached",
      error: `A store holds at most ${LIMITS.rulesPerStore} alert rules. Delete one before adding another.`,
    });
    expect((await listRules(db, scope)).length).toBe(LIMITS.rulesPerStore);
  });
});
