import { z } from "zod";
import { directions, MAX_WEEKS, MIN_WEEKS, sensitivities, thresholdOperators } from "@/shared/metrics/anomaly";
import { LIMITS } from "@/shared/limits";
import { identifierSchema, givenNameSchema } from "./common";

/**
 * Alert rules: a store, channel or product metric (optionally within a saved view's filters) judged per period against a threshold or for
 * an anomaly, and what they deliver (in-app, e-mail, webhook).
 */

const alertMetrics = ["revenue", "orders", "units"] as const;
export type AlertMetric = (typeof alertMetrics)[number];

const conditionSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("anomaly"),
    direction: z.enum(directions),
    sensitivity: z.enum(sensitivities),
    minVolume: z.number().min(0).max(1e12),
    weeks: z.number().int().min(MIN_WEEKS).max(MAX_WEEKS),
  }),
  z.strictObject({ kind: z.literal("threshold"), operator: z.enum(thresholdOperators), threshold: z.number().min(0).max(1e12) }),
]);

const targetSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("store") }),
  z.strictObject({ kind: z.literal("channel"), channel: identifierSchema }),
  z.strictObject({ kind: z.literal("product"), productId: identifierSchema }),
]);
export type AlertTarget = z.infer<typeof targetSchema>;

/** http(s) only; whether its address may be reached is checked when it is called (webhook guard). */
const webhookUrlSchema = z
  .string()
  .max(2000)
  .refine((value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be an http or https URL");

export const alertRuleInputSchema = z.strictObject({
  name: givenNameSchema("rule", 100),
  metric: z.enum(alertMetrics),
  target: targetSchema,
  /** A saved view of the same store whose filters narrow what the rule reads. */
  savedViewId: z.string().max(100).nullable(),
  granularity: z.enum(["day", "hour"]),
  condition: conditionSchema,
  emails: z.array(z.email()).max(LIMITS.recipients, `A rule e-mails at most ${LIMITS.recipients} addresses.`),
  webhookUrl: webhookUrlSchema.nullable(),
});
export type AlertRuleInput = z.infer<typeof alertRuleInputSchema>;

const alertRuleStates = ["ok", "firing"] as const;

/** One episode of a rule: the period it fired, with the value and the usual one, and the period it stopped (null while it lasts). */
const episodeSchema = z.strictObject({
  openedPeriod: z.string(),
  openedAt: z.string(),
  value: z.number(),
  baseline: z.number().nullable(),
  resolvedPeriod: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});

export const alertRuleSchema = alertRuleInputSchema.extend({
  id: z.string(),
  muted: z.boolean(),
  snoozedUntil: z.string().nullable(),
  /** Whether the snooze still runs, as of the answer. */
  snoozed: z.boolean(),
  state: z.enum(alertRuleStates),
  lastCheckedAt: z.string().nullable(),
  createdByEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Its saved view was deleted (its name; "" when gone): the rule is paused until it reads another view or the whole store. */
  deletedViewName: z.string().nullable(),
  /** Shared secret of the webhook signature: shown to the rule's owner only (null for anyone else; docs/webhooks.md). */
  webhookSecret: z.string().nullable(),
  /** The same secret as Standard Webhooks libraries take it (`whsec_…`); null for anyone but the owner. */
  standardWebhookSecret: z.string().nullable(),
  /** Its episodes, newest first: on the rule's own page only. */
  episodes: z.array(episodeSchema).optional(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;
export const alertRuleListSchema = z.strictObject({ rules: z.array(alertRuleSchema) });

export const snoozeSchema = z.strictObject({
  /** Minutes from now; 0 ends a snooze. */
  minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 30),
});
export const muteSchema = z.strictObject({ muted: z.boolean() });

/** A channel or product behind a move; `name` is the product's name as the rows carry it. */
const moverSchema = z.strictObject({
  key: z.string(),
  name: z.string().optional(),
  current: z.number(),
  baseline: z.number(),
  change: z.number(),
  share: z.number(),
});
const whatMovedSchema = z.strictObject({ net: z.number(), channels: z.array(moverSchema), products: z.array(moverSchema) });
export type WhatMoved = z.infer<typeof whatMovedSchema>;

/** What a notification says (the inbox shows it, webhooks and e-mail carry it). */
export const alertMessageSchema = z.strictObject({
  kind: z.enum(["alert_fired", "alert_resolved"]),
  ruleName: z.string(),
  metric: z.enum(alertMetrics),
  target: targetSchema,
  period: z.string(),
  value: z.number(),
  baseline: z.number().nullable(),
  currency: z.string().nullable(),
  whatMoved: whatMovedSchema.nullable(),
  /** How the rule judges: which way of moving is its concern, and over how many weeks (anomaly rules). */
  rule: z
    .strictObject({
      concern: z.enum(["up", "down", "both"]),
      weeks: z.number().int().optional(),
    })
    .optional(),
  /** The name of the product the rule watches, when the rows carry one. */
  targetName: z.string().optional(),
});
export type AlertMessageInput = z.infer<typeof alertMessageSchema>;

/** One period a rule judged: its store-local label ("2026-11-23" or "2026-11-23 14:00"), value and verdict. */
const judgedPeriodSchema = z.strictObject({
  period: z.string(),
  value: z.number(),
  baseline: z.number().nullable(),
  fires: z.boolean(),
  /** An anomaly rule still learning: how many earlier weeks had data (fewer than MIN_WEEKS, so it cannot fire). */
  learningWeeks: z.number().int().optional(),
});
export type JudgedPeriod = z.infer<typeof judgedPeriodSchema>;

export const backtestSchema = z.strictObject({
  currency: z.string().nullable(),
  periods: z.array(judgedPeriodSchema),
  /** First period of each episode the rule would have opened. */
  firedOn: z.array(z.string()),
});
export type Backtest = z.infer<typeof backtestSchema>;

export const checkResultSchema = z.strictObject({
  checked: z.number(),
  fired: z.number(),
  resolved: z.number(),
  failed: z.number(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;
