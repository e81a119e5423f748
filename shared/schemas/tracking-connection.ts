import { z } from "zod";

const trackingConnectionSettingsSchema = z.looseObject({
  enabled: z.boolean(),
  hideOriginalIP: z.boolean(),
  gaAnalytics: z.boolean(),
  baseDomain: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  eventSettings: z.looseObject({
    includeEvents: z.array(z.string()),
    excludeEvents: z.array(z.string()),
  }),
  disableSubscribeEvents: z.boolean(),
});

/** A tracking connection (contract 2.8); `createdAt`/`updatedAt` units: see `timestampToDate`. */
export const trackingConnectionSchema = z.looseObject({
  id: z.string(),
  store: z.string(),
  name: z.string(),
  pixel: z.string(),
  channel: z.string(),
  enabled: z.boolean(),
  settings: trackingConnectionSettingsSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  published: z.boolean(),
  hasUnpublishedChanges: z.boolean(),
});
export type TrackingConnection = z.infer<typeof trackingConnectionSchema>;

/** GET /pixels/{storeUrl} (DESIGN.md); a bare array is accepted too. */
export const trackingConnectionListSchema = z.union([
  z.looseObject({ storeUrl: z.string(), pixels: z.array(trackingConnectionSchema) }),
  z.array(trackingConnectionSchema).transform((pixels) => ({ storeUrl: undefined, pixels })),
]);

/** DELETE /pixels/{storeUrl}/{pixelId} (contract 4.8). */
export const trackingConnectionDeleteSchema = z.looseObject({
  storeUrl: z.string(),
  pixels: z.array(trackingConnectionSchema),
  ok: z.boolean(),
});

/** The contract gives no unit for numeric timestamps: a value under 10^11 is read as seconds, otherwise as milliseconds (DESIGN.md). */
export function timestampToDate(value: number): Date {
  return new Date(value < 1e11 ? value * 1000 : value);
}
