import { z } from "zod";
import { currencyDecimals } from "@/shared/format";
import type { TimeZoneReading } from "@/shared/store-locale";
import { zonedLocalToEpochMs } from "@/shared/time-zone";
import { DIRECTION_CHARACTERS, identifierSchema, LINE_BREAKING } from "./common";

const campaignStatuses = ["PAUSED", "ACTIVE"] as const;

/** Body of POST …/clone-linkedin-campaign (contract 4.7); not in the contract: times are epoch ms, budget in the currency's major unit. */
export const cloneCampaignRequestSchema = z.strictObject({
  adAccountId: identifierSchema,
  payload: z
    .strictObject({
      sourceCampaignGroupId: identifierSchema,
      name: z
        .string()
        .trim()
        .min(1, "must not be empty")
        .max(255, "must be at most 255 characters")
        .refine(
          (name) => !LINE_BREAKING.test(name) && !DIRECTION_CHARACTERS.test(name),
          "must be one line of text, without control or direction characters",
        ),
      status: z.enum(campaignStatuses).default("PAUSED"),
      startTime: z.number().int().positive().optional(),
      endTime: z.number().int().positive().optional(),
      budget: z.number().positive("must be greater than 0").finite().optional(),
      currencyCode: z
        .string()
        .regex(/^[A-Z]{3}$/, "must be a three-letter currency code")
        .optional(),
    })
    .superRefine((payload, ctx) => {
      if (payload.startTime !== undefined && payload.endTime !== undefined && payload.endTime <= payload.startTime) {
        ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be after startTime" });
      }
    }),
});
export type CloneCampaignRequest = z.input<typeof cloneCampaignRequestSchema>;

/** The `asset` of a clone response (contract 2.6). */
const advertisingAssetSchema = z.looseObject({
  key: z.string(),
  platform: z.string(),
  adAccountId: z.string(),
  assetType: z.string(),
  assetId: z.string(),
  name: z.string(),
  supportedWrites: z.array(z.string()),
  parentAssetId: z.string(),
  status: z.string(),
  effectiveStatus: z.string(),
  dailyBudget: z.number(),
  lifetimeBudget: z.number(),
  updatedAt: z.string(),
});

export const cloneCampaignResponseSchema = z.looseObject({
  ok: z.boolean(),
  result: z.record(z.string(), z.unknown()),
  asset: advertisingAssetSchema,
  results: z.array(z.record(z.string(), z.unknown())),
});
export type CloneCampaignResponse = z.infer<typeof cloneCampaignResponseSchema>;

/** The clone form's fields, as typed: dates are `datetime-local` text in the store's time zone. */
export interface CloneFormValues {
  adAccountId: string;
  sourceCampaignGroupId: string;
  name: string;
  /** "Start delivering immediately": the clone is ACTIVE instead of PAUSED. */
  startDelivering: boolean;
  /** The new name typed again, required for ACTIVE. */
  confirmation: string;
  start: string;
  /** Empty: no end date. */
  end: string;
  budget: string;
  currencyCode: string;
  /** The user confirmed the zone the times are read in, when the store's own could not be used (`TimeZoneReading.certain`). */
  zoneConfirmed: boolean;
}
export type CloneFormField = keyof CloneFormValues;

/** Which form field a request path names, for the route's and the upstream's `details.issues`. */
const fieldOfRequestPath: Record<string, CloneFormField> = {
  adAccountId: "adAccountId",
  "payload.sourceCampaignGroupId": "sourceCampaignGroupId",
  "payload.name": "name",
  "payload.status": "startDelivering",
  "payload.startTime": "start",
  "payload.endTime": "end",
  "payload.budget": "budget",
  "payload.currencyCode": "currencyCode",
};

export function cloneFormFieldOf(requestPath: string): CloneFormField | undefined {
  return Object.hasOwn(fieldOfRequestPath, requestPath) ? fieldOfRequestPath[requestPath] : undefined;
}

const DECIMAL = /^\d+(?:\.(\d+))?$/;

/**
 * The clone form's schema: the form's text in, the route's request body out (piped through its schema). It adds dates in the store's zone,
 * a budget in the currency's digits, ACTIVE only with the name typed again, and times only once an unusable zone was confirmed.
 */
export function cloneFormSchema(reading: TimeZoneReading) {
  const timeZone = reading.zone;
  const payload = cloneCampaignRequestSchema.shape.payload.shape;
  return z
    .strictObject({
      adAccountId: z.string().trim().pipe(cloneCampaignRequestSchema.shape.adAccountId),
      sourceCampaignGroupId: z.string().trim().pipe(payload.sourceCampaignGroupId),
      name: payload.name,
      startDelivering: z.boolean(),
      confirmation: z.string(),
      start: z.string().min(1, "choose when the clone may start"),
      end: z.string(),
      budget: z.string().trim().min(1, "enter a budget"),
      currencyCode: z.string().trim().pipe(payload.currencyCode.unwrap()),
      zoneConfirmed: z.boolean(),
    })
    .superRefine((values, ctx) => {
      const startTime = values.start ? zonedLocalToEpochMs(values.start, timeZone) : null;
      const endTime = values.end ? zonedLocalToEpochMs(values.end, timeZone) : null;
      if (values.start && startTime === null)
        ctx.addIssue({ code: "custom", path: ["start"], message: `is not a time that exists in ${reading.label}` });
      if (values.end && endTime === null)
        ctx.addIssue({ code: "custom", path: ["end"], message: `is not a time that exists in ${reading.label}` });
      if (!reading.certain && (values.start || values.end) && !values.zoneConfirmed) {
        ctx.addIssue({
          code: "custom",
          path: ["zoneConfirmed"],
          message: `confirm that the times are in ${reading.label}: the store's own time zone cannot be used`,
        });
      }
      if (startTime !== null && endTime !== null && endTime <= startTime)
        ctx.addIssue({ code: "custom", path: ["end"], message: "must be after the start" });
      const budget = DECIMAL.exec(values.budget);
      if (values.budget && (!budget || Number(values.budget) <= 0)) {
        ctx.addIssue({ code: "custom", path: ["budget"], message: "must be a number greater than 0" });
      } else if (budget && (budget[1]?.length ?? 0) > currencyDecimals(values.currencyCode)) {
        const digits = currencyDecimals(values.currencyCode);
        ctx.addIssue({
          code: "custom",
          path: ["budget"],
          message:
            digits === 0
              ? `must be a whole amount in ${values.currencyCode}`
              : `must have at most ${digits} decimals in ${values.currencyCode}`,
        });
      }
      if (values.startDelivering && values.confirmation.trim() !== values.name) {
        ctx.addIssue({ code: "custom", path: ["confirmation"], message: "type the new name exactly to start delivery immediately" });
      }
    })
    .transform((values): CloneCampaignRequest => ({
      adAccountId: values.adAccountId,
      payload: {
        sourceCampaignGroupId: values.sourceCampaignGroupId,
        name: values.name,
        status: values.startDelivering ? "ACTIVE" : "PAUSED",
        startTime: zonedLocalToEpochMs(values.start, timeZone) ?? undefined,
        ...(values.end ? { endTime: zonedLocalToEpochMs(values.end, timeZone) ?? undefined } : {}),
        budget: Number(values.budget),
        currencyCode: values.currencyCode,
      },
    }))
    .pipe(cloneCampaignRequestSchema);
}
