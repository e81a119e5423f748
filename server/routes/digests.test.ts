import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { reachDb } from "@/server/db/reach";
import { database, type Db } from "@/server/db/database";
import { createSchedule } from "@/server/digests/store";
import { LIMITS } from "@/shared/limits";
import { activityResponseSchema } from "@/shared/schemas/activity";
import { digestSchema } from "@/shared/schemas/digest";
import { unique } from "@/test/databases";
import { ADMIN_KEY, callRoute, MARKETER_KEY, sessionRequest, US_STORE, useUpstream } from "@/test/harness";
import { signInEach, type SignedIn } from "@/test/signed-in";
import { changeDigest, createDigest, deleteDigest, listDigests, sendDigestNow } from "./digests";
import { createSavedView } from "./saved-views";
import { activity } from "./activity";

/** Digests over their routes, as the pages call them: limits on "Send now" and on what a store holds. */
const BASE = `/api/stores/${US_STORE}`;
const ORGANIZATION = describeDemo().keys.find((key) => key.key === ADMIN_KEY)!.organizationId!;
const env = { DELEGATION_KEY: "digest-routes-master-key-".padEnd(48, "k") };

let upstream: DemoUpstream;
let db: Db;
let cookies: SignedIn["cookies"];
let emails: SignedIn["emails"];

beforeAll(async () => {
  upstream = await startDemoUpstream({ port: 0 });
  useUpstream(upstream.baseUrl, env);
  db = reachDb(await database(), [US_STORE]);
  ({ cookies, emails } = await signInEach({ admin: ADMIN_KEY, marketer: MARKETER_KEY }, { granting: US_STORE }));
});
afterAll(() => upstream.close());
beforeEach(() => useUpstream(upstream.baseUrl, env));
afterEach(() => vi.unstubAllEnvs());

async function digestOf(who: string): Promise<string> {
  const view = await callRoute(
    createSavedView,
    sessionRequest("POST", `${BASE}/saved-views`, cookies[who]!, {
      name: unique("View"),
      search: "range=custom&from=2026-01-01&to=2026-01-14",
    }),
  );
  const { id: savedViewId } = (await view.json()) as { id: string };
  const created = await callRoute(
    createDigest,
    sessionRequest("POST", `${BASE}/digests`, cookies[who]!, {
      savedViewId,
      cadence: "daily",
      localTime: "07:00",
      recipients: ["team@example.com"],
    }),
  );
  expect(created.status).toBe(201);
  return digestSchema.parse(await created.json()).id;
}

const press = (who: string, id: string) => callRoute(sendDigestNow, sessionRequest("POST", `${BASE}/digests/${id}/send`, cookies[who]!));

async function refusal(response: Response) {
  expect(response.status).toBe(429);
  const body = (await response.json()) as { error: string; code: string; retryAfter: string };
  expect(body.code).toBe("rate_limited");
  expect(response.headers.get("retry-after")).toBe(body.retryAfter);
  return { ...body, wait: Number(body.retryAfter) };
}

describe("Send now", () => {
  it("goes once a minute per person and digest; a refused press says when it may go again", async () => {
    const id = await digestOf("admin");
    expect((await press("admin", id)).status).toBe(202);
    const page = activityResponseSchema.parse(
      await (await callRoute(activity, sessionRequest("GET", "/api/activity", cookies.admin!))).json(),
    );
    expect(page.entries.find((entry) => entry.target.digestId === id && entry.action === "digest.send-now")?.userEmail).toBe(emails.admin);
    const again = await refusal(await press("admin", id));
    expect(again.wait).toBeGreaterThan(55);
    expect(again.wait).toBeLessThanOrEqual(60);
    expect(again.error).toBe(`You sent this digest less than a minute ago. You may send it again in ${again.wait} s.`);
    // Another person may press it; the refused press queued nothing.
    expect((await press("marketer", id)).status).toBe(202);
    const [{ count }] = (await db.query<{ count: number }>("select count(*)::int as count from jobs where unique_key like $1", [
      `digest.send:${id}:now-%`,
    ])) as [{ count: number }];
    expect(count).toBe(2);
  });

  it(`goes ${LIMITS.sendNowPerPersonHour} times an hour per person and digest`, async () => {
    const id = await digestOf("admin");
    const now = Date.now();
    // Ten earlier presses, the oldest 50 minutes ago, the newest five minutes ago.
    for (let index = 0; index < LIMITS.sendNowPerPersonHour; index += 1) {
      await db.query(
        "insert into send_now_presses (organization_id, store_url, schedule_id, person, at) values ($1, $2, $3, lower($4), $5)",
        [ORGANIZATION, US_STORE, id, emails.admin, new Date(now - (50 - index * 5) * 60_000)],
      );
    }
    const refused = await refusal(await press("admin", id));
    expect(refused.error).toMatch(
      new RegExp(`^You sent this digest ${LIMITS.sendNowPerPersonHour} times in the last hour. You may send it again in (9|10) min\\.$`),
    );
    expect(refused.wait).toBeGreaterThan(9 * 60);
    expect(refused.wait).toBeLessThanOrEqual(10 * 60);
  });

  it(`goes ${LIMITS.sendNowPerOrganizationDay} times a day per organization`, async () => {
    const id = await digestOf("marketer");
    const then = new Date(Date.now() - 3 * 3600_000);
    // Presses of the organization in its other stores count too: the limit reads them by organization alone.
    await db.query(`insert into organization_send_now (organization_id, at) select $1, $2 from generate_series(1, $3::int)`, [
      ORGANIZATION,
      then,
      LIMITS.sendNowPerOrganizationDay,
    ]);
    const refused = await refusal(await press("marketer", id));
    expect(refused.error).toBe(
      `Your organization sent ${LIMITS.sendNowPerOrganizationDay} digests with “Send now” in the last 24 hours. The next may go in 21 h; scheduled digests still go out.`,
    );
    await db.query("delete from organization_send_now where at = $1", [then]);
  });
});

describe("whose digest it is", () => {
  it("is deleted only by the owner of the grant it reads through; others see it", async () => {
    const id = await digestOf("admin");
    const listed = await callRoute(listDigests, sessionRequest("GET", `${BASE}/digests`, cookies.marketer!));
    expect(((await listed.json()) as { digests: { id: string }[] }).digests.map((digest) => digest.id)).toContain(id);
    const refused = await callRoute(deleteDigest, sessionRequest("DELETE", `${BASE}/digests/${id}`, cookies.marketer!));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(
      `Only ${emails.admin} may delete this digest: it reads and sends through their grant. You may copy it under your own grant.`,
    );
    expect((await callRoute(deleteDigest, sessionRequest("DELETE", `${BASE}/digests/${id}`, cookies.admin!))).status).toBe(200);
    const page = activityResponseSchema.parse(
      await (await callRoute(activity, sessionRequest("GET", "/api/activity", cookies.admin!))).json(),
    );
    expect(
      page.entries
        .filter((entry) => entry.target.digestId === id)
        .map((entry) => [entry.action, entry.userEmail])
        .reverse(),
    ).toEqual([
      ["digest.create", emails.admin],
      ["digest.delete", emails.admin],
    ]);
  });
});

describe("changing a digest", () => {
  const change = { cadence: "weekly", weekday: 3, localTime: "09:30", recipients: ["team@example.com", "boss@example.com"] };

  it("changes its cadence, time and recipients in place, by the grant's owner only, recorded in Activity", async () => {
    const id = await digestOf("admin");
    const refused = await callRoute(changeDigest, sessionRequest("PATCH", `${BASE}/digests/${id}`, cookies.marketer!, change));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toContain(`Only ${emails.admin} may change this digest`);
    const changed = await callRoute(changeDigest, sessionRequest("PATCH", `${BASE}/digests/${id}`, cookies.admin!, change));
    expect(changed.status).toBe(200);
    const digest = digestSchema.parse(await changed.json());
    expect(digest).toMatchObject({ id, cadence: "weekly", weekday: 3, localTime: "09:30" });
    expect(digest.recipients.map((recipient) => recipient.email)).toEqual(["boss@example.com", "team@example.com"]);
    // The next send is a Wednesday at 09:30 in the store's zone.
    expect(new Date(digest.nextRunAt).getTime()).toBeGreaterThan(Date.now());
    const page = activityResponseSchema.parse(
      await (await callRoute(activity, sessionRequest("GET", "/api/activity", cookies.admin!))).json(),
    );
    const entry = page.entries.find((candidate) => candidate.target.digestId === id && candidate.action === "digest.change");
    expect(entry?.userEmail).toBe(emails.admin);
    expect(entry?.target.change).toBe("daily at 07:00 → weekly on day 3 at 09:30; added boss@example.com");
  });

  it("refuses an invalid change, and a digest of no such id, without changing anything", async () => {
    const id = await digestOf("admin");
    const invalid = await callRoute(
      changeDigest,
      sessionRequest("PATCH", `${BASE}/digests/${id}`, cookies.admin!, { ...change, weekday: undefined }),
    );
    expect(invalid.status).toBe(400);
    const missing = await callRoute(
      changeDigest,
      sessionRequest("PATCH", `${BASE}/digests/digest_00000000-0000-4000-8000-000000000000`, cookies.admin!, change),
    );
    expect(missing.status).toBe(404);
    const listed = await callRoute(listDigests, sessionRequest("GET", `${BASE}/digests`, cookies.admin!));
    const digest = ((await listed.json()) as { digests: { id: string; cadence: string }[] }).digests.find(
      (candidate) => candidate.id === id,
    );
    expect(digest?.cadence).toBe("daily");
  });
});

describe("what a store holds", () => {
  it(`refuses a digest past ${LIMITS.digestsPerStore} per store, and more than ${LIMITS.recipients} recipients, in words`, async () => {
    const template = (
      await db.query<{ savedViewId: string; grantId: string }>(
        `select saved_view_id as "savedViewId", grant_id as "grantId" from digest_schedules where id = $1`,
        [await digestOf("admin")],
      )
    )[0]!;
    const [{ count }] = (await db.query<{ count: number }>("select count(*)::int as count from digest_schedules where store_url = $1", [
      US_STORE,
    ])) as [{ count: number }];
    for (let index = count; index < LIMITS.digestsPerStore; index += 1) {
      await createSchedule(
        db,
        {
          ...template,
          organizationId: ORGANIZATION,
          storeUrl: US_STORE,
          cadence: "daily",
          localTime: "07:00",
          timeZone: "UTC",
          recipients: ["a@example.com"],
          createdByEmail: "x@example.com",
        },
        new Date(),
      );
    }
    const body = { savedViewId: template.savedViewId, cadence: "daily", localTime: "07:00", recipients: ["team@example.com"] };
    const refused = await callRoute(createDigest, sessionRequest("POST", `${BASE}/digests`, cookies.admin!, body));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: "limit_reached",
      error: `A store holds at most ${LIMITS.digestsPerStore} scheduled digests. Delete one before scheduling another.`,
    });
    const many = Array.from({ length: LIMITS.recipients + 1 }, (_, index) => `r${index}@example.com`);
    const tooMany = await callRoute(createDigest, sessionRequest("POST", `${BASE}/digests`, cookies.admin!, { ...body, recipients: many }));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error).toContain(`A digest goes to at most ${LIMITS.recipients} addresses.`);
  });
});
