import "server-only";
import { z } from "zod";
import type { NotificationList } from "@/shared/schemas/notification";
import { database } from "@/server/db/database";
import { listNotifications, setRead, unreadCount } from "@/server/db/notifications";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";

/** GET /api/notifications: the organization's inbox as the signed-in user reads it, and the unread count. */
export const inbox = route(
  { methods: ["GET"], path: "/api/notifications", scope: "organization" },
  async ({ scope, session, requestId }) => {
    const db = await database();
    const email = session.data.user.email;
    const [notifications, unread] = await Promise.all([
      listNotifications(db, scope.organizationId!, email),
      unreadCount(db, scope.organizationId!, email),
    ]);
    const list: NotificationList = {
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
    scope: "organization",
    body: { schema: z.strictObject({ read: z.boolean() }), maxBytes: ACTION_BODY_LIMIT },
  },
  async ({ scope, session, params, body, requestId }) => {
    const found = await setRead(await database(), scope.organizationId!, session.data.user.email, params.id!, body.read, new Date());
    if (!found) throw new DashboardError(404, "not_found", "No such notification.");
    return jsonResponse({ ok: true }, { requestId });
  },
);
