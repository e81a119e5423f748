import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForSuite, storageBackends, unique } from "@/test/databases";
import type { Db } from "@/server/db/database";
import { beginDelivery, finishDelivery, listDeliveries } from "./ledger";

describe.each(storageBackends())("the deliveries ledger on %s", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openForSuite(backend)));
  afterAll(() => close());

  const message = (key: string, organizationId = "org_ledger") => ({
    key,
    recipient: "ada@example.com",
    subject: "Digest",
    html: "<p>Digest</p>",
    textBody: "Digest",
    headers: { "List-Unsubscribe": "<https://example.com/u>" },
    channel: "smtp" as const,
    organizationId,
    storeUrl: "shop.example",
  });

  it("begins a key once: a sent message is never begun again, and 'not sent' is tried again", async () => {
    const key = unique("digest");
    expect((await beginDelivery(db, message(key), 30_000)).begun).toBe(true);
    await finishDelivery(db, key, { outcome: "not_sent", detail: "550 mailbox unavailable" });
    const retry = await beginDelivery(db, message(key), 30_000);
    expect(retry).toMatchObject({ begun: true, delivery: { outcome: "sending", attempts: 2 } });
    await finishDelivery(db, key, { outcome: "sent", messageId: "<1@example.com>" });
    expect(await beginDelivery(db, message(key), 30_000)).toMatchObject({ begun: false, delivery: { outcome: "sent" } });
  });

  it("leaves a fresh attempt to its sender, and turns one left by a dead sender into unknown, never sent again", async () => {
    const key = unique("digest");
    await beginDelivery(db, message(key), 30_000);
    expect(await beginDelivery(db, message(key), 30_000)).toMatchObject({ begun: false, delivery: { outcome: "sending" } });
    await db.query("update deliveries set updated_at = now() - interval '1 minute' where key = $1", [key]);
    expect(await beginDelivery(db, message(key), 30_000)).toMatchObject({ begun: false, delivery: { outcome: "unknown" } });
    expect(await beginDelivery(db, message(key), 30_000)).toMatchObject({ begun: false, delivery: { outcome: "unknown" } });
  });

  it("lists the deliveries of the given stores only, and the Outbox's on their own", async () => {
    const storeUrl = unique("store");
    await beginDelivery(db, { ...message(unique("a")), storeUrl }, 30_000);
    await beginDelivery(db, { ...message(unique("b")), storeUrl, channel: "outbox" }, 30_000);
    await beginDelivery(db, { ...message(unique("c")), storeUrl: unique("store") }, 30_000);
    expect((await listDeliveries(db, [storeUrl])).length).toBe(2);
    expect((await listDeliveries(db, [storeUrl], { channel: "outbox" })).map((delivery) => delivery.channel)).toEqual(["outbox"]);
    expect(await listDeliveries(db, [unique("store")])).toEqual([]);
  });
});
