import "server-only";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { listDeliveries, type Delivery } from "@/server/delivery/ledger";
import { listRuns } from "@/server/jobs/runs";
import { route } from "@/server/http/pipeline";
import { jsonResponse } from "@/server/http/responses";
import { storeItems, storesToRead } from "@/server/http/scope";
import { storeFilterSchema } from "@/shared/schemas/reach";
import type { DeliveryItem } from "@/shared/schemas/runs";

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
  };
}

/** GET /api/runs: the recent background runs and deliveries of the reach's stores (or one: ?store=), with their outcomes. */
export const listRunsAndDeliveries = route(
  { methods: ["GET"], path: "/api/runs", scope: "reach", query: storeFilterSchema },
  async ({ scope, query, requestId }) => {
    const db = await database();
    const storeUrls = storesToRead(scope, query.store);
    const [runs, deliveries] = await Promise.all([listRuns(db, storeUrls), listDeliveries(db, storeUrls)]);
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
      },
      { requestId },
    );
  },
);

/** GET /api/outbox: every message of the reach's stores (or one: ?store=) that went to the Outbox, rendered. */
export const listOutbox = route(
  { methods: ["GET"], path: "/api/outbox", scope: "reach", query: storeFilterSchema },
  async ({ scope, query, requestId }) => {
    const messages = await listDeliveries(await database(), storesToRead(scope, query.store), { channel: "outbox", limit: 50 });
    return jsonResponse(
      {
        smtp: Boolean(settings().mail.smtpUrl),
        stores: storeItems(scope),
        messages: messages.map((message) => ({
          ...deliveryItem(message),
          html: message.html,
          text: message.textBody,
          headers: message.headers,
        })),
      },
      { requestId },
    );
  },
);
