import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { AlertRuleInput } from "@/shared/schemas/alert";
import type { Db } from "@/server/db/database";
import {
  createRule,
  deleteRule,
  getRule,
  listRules,
  openEpisode,
  openEpisodeOf,
  resolveEpisode,
  setRuleQuiet,
  updateRule,
} from "@/server/alerts/rules";
import {
  addNotification,
  listNotifications,
  recordWebhookAttempt,
  setRead,
  unreadCount,
  webhookAttempts,
} from "@/server/alerts/notifications";

const T0 = new Date("2026-04-10T12:00:00Z");
const input: AlertRuleInput = {
  name: "Facebook revenue",
  metric: "revenue",
  target: { kind: "channel", channel: "facebook" },
  savedViewId: null,
  granularity: "day",
  condition: { kind: "anomaly", direction: "down", sensitivity: "medium", minVolume: 100, weeks: 6 },
  emails: ["ops@example.com"],
  webhookUrl: null,
};

describe.each(storageBackends())("alert rules, episodes and the inbox on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  it("keeps rules per organization and store, and reaches a rule only through its own store", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    const rule = await createRule(db, scope, input, "ada@example.com", T0);
    expect(rule.definition).toEqual(input);
    expect(rule.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(rule.state).toBe("ok");
    expect((await listRules(db, scope)).map((r) => r.id)).toEqual([rule.id]);
    expect(await getRule(db, { ...scope, storeUrl: "other.example" }, rule.id)).toBeNull();
    expect(await getRule(db, { ...scope, organizationId: unique("org") }, rule.id)).toBeNull();
    const renamed = await updateRule(db, scope, rule.id, { ...input, name: "Renamed" }, T0);
    expect((renamed!.definition as AlertRuleInput).name).toBe("Renamed");
    const snoozed = await setRuleQuiet(db, scope, rule.id, { snoozedUntil: new Date("2026-04-11T00:00:00Z") }, T0);
    expect(snoozed!.snoozedUntil!.toISOString()).toBe("2026-04-11T00:00:00.000Z");
    const muted = await setRuleQuiet(db, scope, rule.id, { muted: true }, T0);
    expect(muted!.muted).toBe(true);
    expect(muted!.snoozedUntil).not.toBeNull();
    expect(await deleteRule(db, { ...scope, storeUrl: "other.example" }, rule.id, T0)).toBe(false);
    expect(await deleteRule(db, scope, rule.id, T0)).toBe(true);
    expect(await listRules(db, scope)).toEqual([]);
  });

  it("opens at most one episode per rule, even when two checks race, and resolves it once", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    const rule = await createRule(db, scope, input, "ada@example.com", T0);
    const opened = { period: "2026-04-09", value: 12, baseline: 1000, whatMoved: { net: -988 } };
    const results = await Promise.all([openEpisode(db, rule.id, opened, T0), openEpisode(db, rule.id, opened, T0)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await getRule(db, scope, rule.id))!.state).toBe("firing");
    expect((await openEpisodeOf(db, rule.id))!.openedPeriod).toBe("2026-04-09");
    expect((await resolveEpisode(db, rule.id, "2026-04-10", T0))!.resolvedPeriod).toBe("2026-04-10");
    expect(await resolveEpisode(db, rule.id, "2026-04-10", T0)).toBeNull();
    expect(await openEpisodeOf(db, rule.id)).toBeNull();
    expect((await getRule(db, scope, rule.id))!.state).toBe("ok");
  });

  it("shows an organization's notifications to its users only, read and unread per reader", async () => {
    const scope = { organizationId: unique("org"), storeUrl: "shop.example" };
    const rule = await createRule(db, scope, input, "ada@example.com", T0);
    const note = await addNotification(
      db,
      scope,
      { ruleId: rule.id, episodeId: "episode_1", kind: "alert_fired", title: "Revenue fell", body: { value: 12 } },
      T0,
    );
    expect(await unreadCount(db, [scope.storeUrl], "ada@example.com")).toBe(1);
    expect(await unreadCount(db, [unique("store")], "ada@example.com")).toBe(0);
    expect(await setRead(db, [unique("store")], "ada@example.com", note.id, true, T0)).toBe(false);
    expect(await setRead(db, [scope.storeUrl], "Ada@example.com", note.id, true, T0)).toBe(true);
    expect(await unreadCount(db, [scope.storeUrl], "ada@example.com")).toBe(0);
    expect(await unreadCount(db, [scope.storeUrl], "bob@example.com")).toBe(1);
    const [listed] = await listNotifications(db, [scope.storeUrl], "ada@example.com");
    expect(listed!.readAt).not.toBeNull();
    expect(listed!.body).toEqual({ value: 12 });
    await setRead(db, [scope.storeUrl], "ada@example.com", note.id, false, T0);
    expect(await unreadCount(db, [scope.storeUrl], "ada@example.com")).toBe(1);
    await recordWebhookAttempt(db, { notificationId: note.id, url: "https://hooks.example/x", attempt: 1, outcome: "unknown" }, T0);
    await recordWebhookAttempt(
      db,
      { notificationId: note.id, url: "https://hooks.example/x", attempt: 2, outcome: "sent", status: 200 },
      T0,
    );
    expect(await webhookAttempts(db, note.id)).toEqual([
      { attempt: 1, outcome: "unknown", status: null },
      { attempt: 2, outcome: "sent", status: 200 },
    ]);
  });
});
