import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import { createRule, setRuleQuiet, type StoredRule } from "@/server/alerts/rules";
import type { Db } from "@/server/db/database";
import { listNotifications, webhookAttempts } from "@/server/alerts/notifications";
import { upstreamClient } from "@/server/upstream/client";
import { openForSuite, unique } from "@/test/databases";
import { ADMIN_KEY, US_STORE, useUpstream } from "@/test/harness";
import { runAlertChecks } from "./runner";

let demo: DemoUpstream;
let db: Db;
let closeDb: () => Promise<void>;
let receiver: Server;
let hooks: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  demo = await startDemoUpstream({ port: 0 });
  ({ db, close: closeDb } = await openForSuite("pglite"));
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      hooks.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await demo.close();
  await closeDb();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => {
  useUpstream(demo.baseUrl);
  demo.reset();
  hooks = [];
});

const facebookRevenue = (webhookUrl: string | null): AlertRuleInput => ({
  name: "Facebook revenue",
  metric: "revenue",
  target: { kind: "channel", channel: "facebook" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "anomaly", direction: "down", sensitivity: "medium", minVolume: 200, weeks: 8 },
  emails: [],
  webhookUrl,
});

/** New York afternoon: the last complete store-local day is the day before. */
const at = (date: string) => new Date(`${date}T18:00:00Z`);

async function run(rules: StoredRule[], now: Date) {
  return runAlertChecks({
    db,
    rules,
    now,
    upstreamFor: () => upstreamClient({ apiKey: ADMIN_KEY, requestId: "test", readOnly: true }),
    webhooks: { allowPrivate: true, timeoutMs: 2_000, backoffMs: [10] },
  });
}

describe("alert checks against the demo upstream", () => {
  it("notifies once per episode, with what moved, and once more when it resolves", async () => {
    const scope = { organizationId: unique("org"), storeUrl: US_STORE };
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const rule = await createRule(db, scope, facebookRevenue(url), "ada@example.com", at("2026-03-01"));
    const ordersRule = await createRule(
      db,
      scope,
      {
        ...facebookRevenue(null),
        metric: "orders",
        condition: { ...facebookRevenue(null).condition, minVolume: 2 } as AlertRuleInput["condition"],
      },
      "ada@example.com",
      at("2026-03-01"),
    );
    const rules = [rule, ordersRule];

    const calm = await run(rules, at("2026-03-12"));
    expect(calm).toMatchObject({ checked: 2, fired: 0, failed: 0 });
    // Both rules read the same channel and weeks: one products read for the two.
    expect(demo.requestCounts().products).toBe(1);

    demo.setAnomalies([{ storeUrl: US_STORE, channel: "facebook", from: "2026-03-11", to: "2026-03-13" }]);
    const fired = await run(rules, at("2026-03-12"));
    expect(fired).toMatchObject({ checked: 2, fired: 2, resolved: 0 });
    const [first] = await listNotifications(db, [scope.storeUrl], "ada@example.com");
    expect(first!.kind).toBe("alert_fired");
    const body = first!.body as {
      period: string;
      value: number;
      baseline: number;
      whatMoved: { channels: { key: string; change: number }[] };
    };
    expect(body.period).toBe("2026-03-11");
    expect(body.value).toBeLessThan(body.baseline * 0.2);
    expect(body.whatMoved.channels[0]!.key).toBe("facebook");
    expect(body.whatMoved.channels[0]!.change).toBeLessThan(0);

    // The webhook arrived once, signed with the rule's secret, in Slack's shape.
    expect(hooks).toHaveLength(1);
    const { headers, body: raw } = hooks[0]!;
    const expected = createHmac("sha256", rule.webhookSecret).update(`${headers["x-dashboard-timestamp"]}.${raw}`).digest("hex");
    expect(headers["x-dashboard-signature"]).toBe(`v1=${expected}`);
    expect(JSON.parse(raw)).toMatchObject({ text: expect.stringContaining("Facebook revenue"), blocks: expect.any(Array) });
    expect(await webhookAttempts(db, headers["x-dashboard-delivery"] as string)).toEqual([{ attempt: 1, outcome: "sent", status: 200 }]);

    // Still firing, checked again the same day and the next: nothing more is sent.
    expect(await run(rules, at("2026-03-12"))).toMatchObject({ fired: 0, resolved: 0 });
    expect(await run(rules, at("2026-03-13"))).toMatchObject({ fired: 0, resolved: 0 });
    expect(hooks).toHaveLength(1);

    // The drop ended on the 13th: the check of the 14th resolves both episodes.
    expect(await run(rules, at("2026-03-15"))).toMatchObject({ fired: 0, resolved: 2 });
    const kinds = (await listNotifications(db, [scope.storeUrl], "ada@example.com")).map((note) => note.kind);
    expect(kinds.filter((kind) => kind === "alert_fired")).toHaveLength(2);
    expect(kinds.filter((kind) => kind === "alert_resolved")).toHaveLength(2);
    expect(hooks).toHaveLength(2);
  });

  it("does not check muted rules, and keeps snoozed ones quiet while tracking their episode", async () => {
    const scope = { organizationId: unique("org"), storeUrl: US_STORE };
    const muted = await setRuleQuiet(
      db,
      scope,
      (await createRule(db, scope, facebookRevenue(null), "a@example.com", at("2026-03-01"))).id,
      { muted: true },
      at("2026-03-01"),
    );
    const snoozed = await setRuleQuiet(
      db,
      scope,
      (await createRule(db, scope, facebookRevenue(null), "a@example.com", at("2026-03-01"))).id,
      { snoozedUntil: at("2026-03-20") },
      at("2026-03-01"),
    );
    demo.setAnomalies([{ storeUrl: US_STORE, channel: "facebook", from: "2026-03-11" }]);
    const result = await run([muted!, snoozed!], at("2026-03-12"));
    expect(result).toMatchObject({ checked: 1, fired: 1 });
    const quiet = new Set([muted!.id, snoozed!.id]);
    expect((await listNotifications(db, [scope.storeUrl], "a@example.com")).filter((note) => quiet.has(note.ruleId!))).toEqual([]);
  });

  it("counts a rule whose upstream fails, and checks the others", async () => {
    const scope = { organizationId: unique("org"), storeUrl: US_STORE };
    const rule = await createRule(db, scope, facebookRevenue(null), "a@example.com", at("2026-03-01"));
    demo.setFaults([{ route: "products", errorStatus: 500 }]);
    const errors: string[] = [];
    const result = await runAlertChecks({
      db,
      rules: [rule],
      now: at("2026-03-12"),
      upstreamFor: () => upstreamClient({ apiKey: ADMIN_KEY, requestId: "test", readOnly: true }),
      webhooks: { allowPrivate: true, timeoutMs: 2_000 },
      onRuleError: async (failed) => void errors.push(failed.id),
    });
    expect(result).toMatchObject({ checked: 0, failed: 1 });
    expect(errors).toEqual([rule.id]);
  });
});
