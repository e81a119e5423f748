import { z } from "zod";
import { reachStoresSchema } from "./reach";

/** The inbox as one reader sees it: newest first, with whether they have read each. */
const notificationSchema = z.strictObject({
  id: z.string(),
  storeUrl: z.string(),
  ruleId: z.string().nullable(),
  kind: z.enum(["alert_fired", "alert_resolved", "rule_paused"]),
  title: z.string(),
  /** The alert's figures (AlertMessageInput); shown as the inbox reads them. */
  body: z.unknown(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type InboxNotification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.strictObject({
  stores: reachStoresSchema,
  unread: z.number(),
  notifications: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;
