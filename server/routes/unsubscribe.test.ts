import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as unsubscribeRoute } from "@/app/api/unsubscribe/[token]/route";
import { database } from "@/server/db/database";
import { acrossStores, withReach, reachDb } from "@/server/db/reach";
import { dashboardRequest } from "@/test/harness";

/** One-click unsubscribe: no session and no reach, so the token is looked up across stores, on purpose. */
const STORE = "unsubscribe-test.example";

async function plantRecipient(token: string): Promise<void> {
  const db = reachDb(await database(), [STORE]);
  const suffix = randomBytes(4).toString("hex");
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into saved_views (id, organization_id, store_url, name, name_key, view, created_by_email, created_at, updated_at)
       values ($1, 'org_1', $2, 'Weekly', $1, '{}', 'a@example.com', now(), now())`,
      [`view_${suffix}`, STORE],
    );
    await tx.query(
      `insert into grants (id, organization_id, store_url, key_fingerprint, owner_email, master_key_id, wrapped_data_key, sealed_api_key,
         created_at, expires_at)
       values ($1, 'org_1', $2, 'fp', 'a@example.com', 'k', '\\x00', '\\x00', now(), now() + interval '1 day')`,
      [`grant_${suffix}`, STORE],
    );
    await tx.query(
      `insert into digest_schedules (id, organization_id, store_url, saved_view_id, grant_id, cadence, local_time, time_zone, next_run_at,
         created_by_email, created_at)
       values ($1, 'org_1', $2, $3, $4, 'daily', '08:00', 'UTC', now() + interval '1 day', 'a@example.com', now())`,
      [`digest_${suffix}`, STORE, `view_${suffix}`, `grant_${suffix}`],
    );
    await tx.query(
      "insert into digest_recipients (schedule_id, email, unsubscribe_token, store_url) values ($1, 'bea@example.com', $2, $3)",
      [`digest_${suffix}`, token, STORE],
    );
  });
}

const post = (token: string) =>
  unsubscribeRoute(dashboardRequest(`/api/unsubscribe/${token}`, { method: "POST", headers: { origin: "https://mail.example" } }), {
    params: { token },
  });

describe("POST /api/unsubscribe/{token}", () => {
  it("unsubscribes the recipient the token names, in whichever store, without a session", async () => {
    const token = randomBytes(24).toString("base64url");
    await plantRecipient(token);
    const response = await post(token);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(
      "bea@example.com will no longer receive the digest “Weekly” nor other mail of unsubscribe-test.example",
    );
    const [row] = await acrossStores(await database(), "a test of unsubscribe", (tx) =>
      tx.query<{ done: boolean }>("select unsubscribed_at is not null as done from digest_recipients where unsubscribe_token = $1", [
        token,
      ]),
    );
    expect(row).toEqual({ done: true });
    // The address is suppressed for the token's store, written in that store's reach.
    const suppressed = await withReach(await database(), [STORE], (tx) =>
      tx.query<{ email: string }>("select email from mail_suppressions where store_url = $1", [STORE]),
    );
    expect(suppressed).toEqual([{ email: "bea@example.com" }]);
  });

  it("answers 404 to a token nobody was given", async () => {
    expect((await post(randomBytes(24).toString("base64url"))).status).toBe(404);
  });
});
