import "server-only";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { listAwaitingDecision, type AwaitingDelivery } from "@/server/delivery/decisions";
import { listDeliveries, type Delivery } from "@/server/delivery/ledger";
import { samePerson } from "@/server/grants/ownership";
import { listRuns } from "@/server/jobs/runs";
import { route } from "@/server/http/pipeline";
import { jsonResponse } from "@/server/http/responses";
import { storeItems, storesToRead } from "@/server/http/scope";
import { storeFilterSchema } from "@/shared/schemas/reach";
import type { AwaitingItem, DeliveryItem } from "@/shared/schemas/runs";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function deliveryItem(delivery: Delivery): DeliveryItem {
  return {
    key: delivery.key,
    storeUrl: delivery.storeUrl,
    recipient: delivery.recipient,
    subject: delivery.subject,
    channel: delivery.channel,
    outcome: delivery.outcome,
    detail: delivery.detail,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
    decision:
      delivery.decision && delivery.decidedBy && delivery.decidedAt
        ? { kind: delivery.decision, by: delivery.decidedBy, at: delivery.decidedAt.toISOString(), resentKey: delivery.resentKey }
        : null,
  };
}

/** What is known about an `unknown` message, in plain words: the ledger's detail is the mail server's, or the sender's. */
function whatIsKnown(delivery: AwaitingDelivery): string {
  if (delivery.detail?.startsWith("The sending instance stopped mid-send"))
    return "The instance sending it stopped in the middle of the send: it may have arrived.";
  return "The mail server did not answer after the message was sent: it may have arrived.";
}

function awaitingItem(delivery: AwaitingDelivery, viewer: string): AwaitingItem {
  return {
    key: delivery.key,
    storeUrl: delivery.storeUrl,
    recipient: delivery.recipient,
    subject: delivery.subject,
    sentBy: delivery.source?.kind ?? null,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
    known: whatIsKnown(delivery),
    detail: delivery.detail,
    ownerEmail: delivery.ownerEmail,
    mayDecide: delivery.ownerEmail !== null && samePerson(delivery.ownerEmail, viewer),
    bodyKept: delivery.bodyKept,
  };
}

/** GET /api/runs: recent background runs and deliveries of the reach (or ?store=), and `unknown` deliveries awaiting a decision. */
export const listRunsAndDeliveries = route(
  { methods: ["GET"], path: "/api/runs", scope: "reach", query: storeFilterSchema },
  async ({ scope, query, session, requestId }) => {
    const db = await database();
    const storeUrls = storesToRead(scope, query.store);
    const [runs, deliveries, awaiting] = await Promise.all([
      listRuns(db, storeUrls),
      listDeliveries(db, storeUrls),
      listAwaitingDecision(db, storeUrls),
    ]);
    return jsonResponse(
      {
        stores: storeItems(scope),
        runs: runs.map((run) => ({
          ...run,
          createdAt: run.createdAt.toISOString(),
          startedAt: iso(run.startedAt),
          finishedAt: iso(run.finishedAt),
          runAt: run.runAt.toISOString(),
        })),
        deliveries: deliveries.map(deliveryItem),
        awaitingDecision: awaiting.map((delivery) => awaitingItem(delivery, session.data.user.email)),
      },
      { requestId },
    );
  },
);

/** An unsubscribe link in a message: its token lifts nothing, but lets its holder opt the address out, or read its page. */
const UNSUBSCRIBE_LINK = /\/api\/unsubscribe\/[\w-]+/g;
const hiddenLink = "/api/unsubscribe/hidden-only-its-recipient-sees-this-link";

/** A message as `viewer` may see it: another recipient's unsubscribe link is hidden (body, text and headers). */
function seenBy(message: Delivery, viewer: string) {
  const hide = (text: string) => (samePerson(message.recipient, viewer) ? text : text.replace(UNSUBSCRIBE_LINK, hiddenLink));
  const headers = Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name, hide(value)]));
  return { ...deliveryItem(message), html: hide(message.html), text: hide(message.textBody), headers };
}

/** GET /api/outbox: every message of the reach's stores (or one: ?store=) that went to the Outbox, rendered. */
export const listOutbox = route(
  { methods: ["GET"], path: "/api/outbox", scope: "reach", query: storeFilterSchema },
  async ({ scope, query, session, requestId }) => {
    const messages = await listDeliveries(await database(), storesToRead(scope, query.store), { channel: "outbox", limit: 50 });
    return jsonResponse(
      {
        smtp: Boolean(settings().mail.smtpUrl),
        stores: storeItems(scope),
        messages: messages.map((message) => seenBy(message, session.data.user.email)),
      },
      { requestId },
    );
  },
);
