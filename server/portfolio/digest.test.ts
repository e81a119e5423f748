import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DemoUpstream } from "@/demo-upstream/server";
import { database } from "@/server/db/database";
import { reachDb } from "@/server/db/reach";
import { enqueueDigest } from "@/server/digests/jobs";
import { createSchedule } from "@/server/digests/store";
import { createGrant } from "@/server/grants/store";
import { formatCurrency, formatNumber } from "@/shared/format";
import { unique } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { startDigestSending, type DigestSending } from "@/test/digest-sending";
import type { MailSink } from "@/test/mail-sink";

const EU_STORE = "northwind-eu.myshopify.com";
const EU_KEY = "sk_demo_admin_nw_eu_2a7f94c1e8b3";
const KEYS = { [US_STORE]: ADMIN_KEY, [EU_STORE]: EU_KEY };
const STORES = [US_STORE, EU_STORE].map((url) => ({ url, organizationId: "org_northwind" }));
const SEARCH = "range=custom&from=2026-01-01&to=2026-01-31&compare=previous";

let sending: DigestSending;
let upstream: DemoUpstream;
let sink: MailSink;

beforeAll(async () => {
  sending = await startDigestSending({ DELEGATION_KEY: "portfolio-master-key-".padEnd(40, "p") });
  ({ upstream, sink } = sending);
});
afterAll(() => sending.stop());

const grant = async (store: keyof typeof KEYS, ownerEmail: string) =>
  createGrant(
    reachDb(await database(), [store]),
    { organizationId: "org_northwind", storeUrl: store, keyFingerprint: unique("fp"), ownerEmail, apiKey: KEYS[store], ttlDays: 30 },
    new Date(),
  );

/** Sends the digest once and returns the plain text its one recipient received. */
async function sent(schedule: Awaited<ReturnType<typeof createSchedule>>, slot: string, recipient: string): Promise<string> {
  await enqueueDigest(schedule!, slot, reachDb(await database(), [US_STORE]));
  await vi.waitFor(
    () => expect(sink.messages.filter((message) => JSON.stringify(message.to).includes(recipient)).length).toBeGreaterThan(0),
    {
      timeout: 30_000,
    },
  );
  const message = sink.messages.filter((message) => JSON.stringify(message.to).includes(recipient)).pop()!;
  sink.messages.splice(sink.messages.indexOf(message), 1);
  expect(message.html).toContain("<caption");
  expect(message.html).toContain("Key figures by store");
  return message.text!;
}

async function rawTotals(store: keyof typeof KEYS, startDate: string, endDate: string) {
  const response = await fetch(`${upstream.baseUrl}/ad-metrics/${store}/products?startDate=${startDate}&endDate=${endDate}`, {
    headers: { "x-api-key": KEYS[store] },
  });
  const rows = (await response.json()) as { revenue: number; orders: number }[];
  return {
    revenue: rows.reduce((sum, row) => sum + Math.round(row.revenue * 100), 0) / 100,
    orders: rows.reduce((sum, row) => sum + row.orders, 0),
  };
}

describe("a digest of several stores", () => {
  it("reads each store through its owner's grant, names a store without one, and states its range and comparison", async () => {
    const owner = `${unique("owner")}@example.com`;
    const recipient = `${unique("team")}@example.com`;
    const home = await grant(US_STORE, owner);
    const schedule = await createSchedule(
      reachDb(await database(), [US_STORE]),
      {
        organizationId: "org_northwind",
        storeUrl: US_STORE,
        savedViewId: null,
        portfolio: { stores: STORES, search: SEARCH },
        grantId: home.id,
        cadence: "weekly",
        weekday: 1,
        localTime: "08:00",
        timeZone: "America/New_York",
        recipients: [recipient],
        createdByEmail: owner,
      },
      new Date(),
    );
    const us = await rawTotals(US_STORE, "2026-01-01", "2026-01-31");
    const first = await sent(schedule, "slot-1", recipient);
    expect(first).toContain(
      "Custom range (Jan 1, 2026 – Jan 31, 2026), each store's own days in its own time zone, compared with the period just before.",
    );
    expect(first).toContain(
      `Jan 1, 2026 – Jan 31, 2026 (America/New_York), against Dec 1, 2025 – Dec 31, 2025 · ${formatCurrency(us.revenue, "USD")}`,
    );
    expect(first).toContain(` · ${formatNumber(us.orders)} (`);
    expect(first).toContain(`Left out:\n- ${EU_STORE}: no grant is in force for it`);
    expect(first).toContain(`Totals per currency, never converted: USD ${formatCurrency(us.revenue, "USD")} (1 store)`);
    expect(first).toMatch(/Open All stores: http:\/\/\S+\/stores\?range=custom&from=2026-01-01&to=2026-01-31&compare=previous/);

    // A grant of the EU store by someone else does not count; the owner's own does.
    await grant(EU_STORE, "someone-else@example.com");
    expect(await sent(schedule, "slot-2", recipient)).toContain(`- ${EU_STORE}: no grant is in force for it`);
    await grant(EU_STORE, owner);
    const eu = await rawTotals(EU_STORE, "2026-01-01", "2026-01-31");
    const both = await sent(schedule, "slot-3", recipient);
    expect(both).not.toContain("Left out");
    expect(both).toContain(
      `Totals per currency, never converted: EUR ${formatCurrency(eu.revenue, "EUR")} (1 store) · USD ${formatCurrency(us.revenue, "USD")} (1 store)`,
    );

    // A grant whose key the upstream refuses: that store's row says so, the other store's row stays.
    await fetch(`${upstream.origin}/__control/revoke`, { method: "POST", body: JSON.stringify({ key: EU_KEY }) });
    const refused = await sent(schedule, "slot-4", recipient);
    expect(refused).toContain(`${EU_STORE} · This key was revoked: remove it from your stores or add a new one.`);
    expect(refused).toContain(`USD ${formatCurrency(us.revenue, "USD")} (1 store)`);
  }, 120_000);

  it("sends nothing while none of its stores has its owner's grant, and says so", async () => {
    const db = reachDb(await database(), [US_STORE]);
    const ended = await grant(US_STORE, `${unique("gone")}@example.com`);
    const schedule = await createSchedule(
      db,
      {
        organizationId: "org_northwind",
        storeUrl: US_STORE,
        savedViewId: null,
        portfolio: { stores: STORES, search: SEARCH },
        grantId: ended.id,
        cadence: "daily",
        localTime: "08:00",
        timeZone: "America/New_York",
        recipients: [`${unique("nobody")}@example.com`],
        createdByEmail: `${unique("someone")}@example.com`,
      },
      new Date(),
    );
    // The schedule's owner is its grant's owner; that grant is revoked here, and no other store was granted.
    await db.query("update grants set ended_at = now(), ended_reason = 'revoked' where id = $1", [ended.id]);
    const { id } = await enqueueDigest(schedule!, "slot-none", db);
    await vi.waitFor(
      async () => {
        const [job] = await db.query<{ state: string; detail: string | null }>("select state, detail from jobs where id = $1", [id]);
        expect(job).toEqual({ state: "done", detail: `Not sent: none of its stores has a grant in force (${US_STORE}, ${EU_STORE}).` });
      },
      { timeout: 30_000, interval: 100 },
    );
  });
});
