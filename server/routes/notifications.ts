import "server-only";
import { z } from "zod";
import type { NotificationList } from "@/shared/schemas/notification";
import { database } from "@/server/db/database";
import { listNotifications, setRead, unreadCount } from "@/server/alerts/notifications";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { storeItems, storesToRead } from "@/server/http/scope";
import { storeFilterSchema } from "@/shared/schemas/reach";

/** GET /api/notifications: the inbox of the reach's stores (or one: ?store=) as the signed-in user reads it, and the unread count. */
export const inbox = route(
  { methods: ["GET"], path: "/api/notifications", scope: "reach", query: storeFilterSchema },
  async ({ scope, session, query, requestId }) => {
    const db = await database();
    const email = session.data.user.email;
    const storeUrls = storesToRead(scope, query.store);
    const [notifications, unread] = await Promise.all([listNotifications(db, storeUrls, email), unreadCount(db, storeUrls, email)]);
    const list: NotificationList = {
      stores: storeItems(scope),
      unread,
      notifications: notifications.map((note) => ({
        id: note.id,
        storeUrl: note.storeUrl,
        ruleId: note.ruleId,
        kind: note.kind,
        title: note.title,
        body: note.body,
        createdAt: note.createdAt.toISOString(),
        read: note.readAt !== null,
      })),
    };
    return jsonResponse(list, { requestId });
  },
);

/** PATCH /api/notifications/{id}: `{ read }` for the signed-in user. */
export const markNotification = route(
  {
    methods: ["PATCH"],
    path: "/api/notifications/[id]",
    scope: "reach",
    body: { schema: z.strictObject({ read: z.boolean() }), maxBytes: ACTION_BODY_LIMIT },
  },
  async ({ scope, session, params, body, requestId }) => {
    const found = await setRead(await database(), storesToRead(scope), session.data.user.email, params.id!, body.read, new Date());
    if (!found) throw new DashboardError(404, "not_found", "No such notification.");
    return jsonResponse({ ok: true }, { requestId });
  },
);
