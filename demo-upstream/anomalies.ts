/**
 * Injected anomalies: from a given store-local day, a channel's sales (as attributed to the
 * conversion touch) mostly stop, as when its tracking or its campaigns break. A line of that
 * channel is dropped whole (orders, units and revenue), except a deterministic `keep` share
 * of them, so the channel's revenue falls to near zero but not to an exact zero.
 */

import { z } from "zod";
import { isoDateSchema as date } from "@/shared/schemas/common";
import { dayNumber } from "./fixtures";

const anomalyRuleSchema = z.strictObject({
  storeUrl: z.string().min(1),
  channel: z.string().min(1),
  /** First store-local day of the drop. */
  from: date,
  /** Last day of the drop (inclusive); open-ended when absent. */
  to: date.optional(),
  /** Share of the channel's lines still sold during the drop (default 0.02). */
  keep: z.number().min(0).max(1).optional(),
});
export const anomalyRulesSchema = z.array(anomalyRuleSchema).max(100);
export type AnomalyRule = z.infer<typeof anomalyRulesSchema>[number];

/** Drops a line (by its conversion channel and index in its day) when an anomaly covers it. */
type LineDrop = (channel: string, index: number) => boolean;

/** A stable fraction in [0, 1) for a (day, line) pair: the same lines are kept on every read. */
function unitHash(day: number, index: number): number {
  let h = Math.imul(day ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return (h >>> 0) / 2 ** 32;
}

export class Anomalies {
  private rules: AnomalyRule[] = [];

  constructor(private readonly atStart: AnomalyRule[] = []) {
    this.reset();
  }

  /** Validates (throws a ZodError on bad rules) and replaces every rule. */
  setRules(rules: AnomalyRule[]): void {
    this.rules = anomalyRulesSchema.parse(rules);
  }

  reset(): void {
    this.setRules(this.atStart);
  }

  list(): AnomalyRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** The drop for one store-local day, or null when no anomaly covers it. */
  dropFor(storeUrl: string, day: number): LineDrop | null {
    const active = this.rules.filter(
      (rule) => rule.storeUrl === storeUrl && dayNumber(rule.from) <= day && (rule.to === undefined || day <= dayNumber(rule.to)),
    );
    if (active.length === 0) return null;
    const keepByChannel = new Map(active.map((rule) => [rule.channel, rule.keep ?? 0.02]));
    return (channel, index) => {
      const keep = keepByChannel.get(channel);
      return keep !== undefined && unitHash(day, index) >= keep;
    };
  }
}
