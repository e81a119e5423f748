import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { decide, listAwaitingDecision, unknownDelivery } from "./decisions";
import { beginDelivery, finishDelivery } from "./ledger";

describe.each(storageBackends())("decisions about unknown deliveries on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  /** A message handed to the mail server with no answer back. */
  async function unknownMessage(storeUrl: string): Promise<string> {
    const key = `digest:${unique("digest")}:slot:ada@example.com`;
    const message = {
      key,
      recipient: "ada@example.com",
      subject: "Digest",
      html: "<p>Digest</p>",
      textBody: "Digest",
      headers: {},
      channel: "smtp" as const,
      organizationId: "org_decisions",
      storeUrl,
    };
    await beginDelivery(db, message, 30_000);
    await finishDelivery(db, key, { outcome: "unknown", detail: "Timeout" });
    return key;
  }

  const press = (key: string, storeUrl: string, kind: "send_again" | "arrived", requestKey: string) =>
    db.transaction(async (tx) => {
      const delivery = (await unknownDelivery(tx, storeUrl, key))!;
      return decide(tx, delivery, { kind, by: "ada@example.com", requestKey, at: new Date() });
    });

  it("records one decision when presses race, and queues one send under the next key", async () => {
    const storeUrl = unique("store");
    const key = await unknownMessage(storeUrl);
    expect((await listAwaitingDecision(db, [storeUrl])).map((item) => item.key)).toEqual([key]);
    const results = await Promise.all([
      press(key, storeUrl, "send_again", "press-a"),
      press(key, storeUrl, "send_again", "press-b"),
      press(key, storeUrl, "arrived", "press-c"),
    ]);
    expect(results.filter((result) => result.decided)).toHaveLength(1);
    const winner = results.find((result) => result.decided)!.record;
    // Every press sees the same decision.
    expect(new Set(results.map((result) => result.record.requestKey))).toEqual(new Set([winner.requestKey]));
    const jobs = await db.query<{ uniqueKey: string }>(`select unique_key as "uniqueKey" from jobs where store_url = $1`, [storeUrl]);
    expect(jobs.map((job) => job.uniqueKey)).toEqual(winner.decision === "send_again" ? [`delivery.resend:${key}#2`] : []);
    expect(await listAwaitingDecision(db, [storeUrl])).toEqual([]);
  });

  it("numbers the keys of messages sent again: #2, then #3", async () => {
    const storeUrl = unique("store");
    const key = await unknownMessage(storeUrl);
    expect((await press(key, storeUrl, "send_again", "first")).record.resentKey).toBe(`${key}#2`);
    await beginDelivery(
      db,
      {
        key: `${key}#2`,
        recipient: "ada@example.com",
        subject: "Digest",
        html: "x",
        textBody: "x",
        headers: {},
        channel: "smtp",
        storeUrl,
      },
      30_000,
    );
    await finishDelivery(db, `${key}#2`, { outcome: "unknown", detail: "Timeout" });
    expect((await press(`${key}#2`, storeUrl, "send_again", "second")).record.resentKey).toBe(`${key}#3`);
  });

  it("lists only the unknown messages of the given stores, and finds none of another store", async () => {
    const storeUrl = unique("store");
    const key = await unknownMessage(storeUrl);
    expect(await listAwaitingDecision(db, [unique("store")])).toEqual([]);
    expect(await unknownDelivery(db, unique("store"), key)).toBeNull();
  });
});
