/**
 * Fault injection: latency, 5xx, dropped connections, malformed and truncated bodies.
 * Dice come from a seeded PRNG so a test run with the same rules and requests is repeatable.
 */

import { z } from "zod";
import { Rng } from "./random";

export const ROUTE_IDS = [
  "context",
  "me",
  "organizations",
  "stores",
  "store-profile",
  "catalogs",
  "products",
  "dimensions",
  "enrich",
  "clone",
  "pixels-list",
  "pixel-delete",
] as const;
export type RouteId = (typeof ROUTE_IDS)[number];

export interface FaultRule {
  route: RouteId | "*";
  storeUrl?: string;
  latencyMs?: number;
  errorStatus?: 500 | 503;
  retryAfter?: string;
  errorRate?: number;
  /** Destroy the socket, no response at all. */
  dropRate?: number;
  /** 200 with a body that is not JSON. */
  malformedRate?: number;
  /** 200, a valid start of the body, then the socket is destroyed. */
  truncateRate?: number;
  /** Apply to at most N matching requests, then the rule is spent. */
  times?: number;
}

const rate = z.number().min(0).max(1);

const faultRuleSchema = z.strictObject({
  route: z.enum(["*", ...ROUTE_IDS]),
  storeUrl: z.string().min(1).optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  errorStatus: z.union([z.literal(500), z.literal(503)]).optional(),
  retryAfter: z.string().min(1).max(100).optional(),
  errorRate: rate.optional(),
  dropRate: rate.optional(),
  malformedRate: rate.optional(),
  truncateRate: rate.optional(),
  times: z.number().int().positive().optional(),
});
export const faultRulesSchema = z.array(faultRuleSchema);

// Keeps the hand-written interface and the schema in step at compile time.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: Same<z.infer<typeof faultRuleSchema>, FaultRule> = true;
void schemaMatchesInterface;

type FaultOutcome =
  { kind: "error"; status: 500 | 503; retryAfter?: string } | { kind: "drop" } | { kind: "malformed" } | { kind: "truncate" };

interface FaultDecision {
  latencyMs: number;
  outcome: FaultOutcome | null;
}

export class FaultInjector {
  private rules: FaultRule[] = [];
  private uses: number[] = [];
  private rng: Rng;

  constructor(
    private readonly seed: number,
    rules: FaultRule[] = [],
  ) {
    this.rng = Rng.from(seed, "faults");
    this.setRules(rules);
  }

  /** Validates (throws a ZodError on bad rules) and replaces every rule. */
  setRules(rules: FaultRule[]): void {
    this.rules = faultRulesSchema.parse(rules);
    this.uses = this.rules.map(() => 0);
  }

  reset(): void {
    this.rules = [];
    this.uses = [];
    this.rng = Rng.from(this.seed, "faults");
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /**
   * Every matching rule adds its latency; the first rule whose dice fire decides the outcome.
   * A rule's `times` counts the requests it matched, whether or not its dice fired.
   */
  decide(route: RouteId, storeUrl: string | undefined): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, outcome: null };
    this.rules.forEach((rule, index) => {
      if (rule.route !== "*" && rule.route !== route) return;
      if (rule.storeUrl !== undefined && rule.storeUrl !== storeUrl) return;
      const used = this.uses[index] ?? 0;
      if (rule.times !== undefined && used >= rule.times) return;
      this.uses[index] = used + 1;
      decision.latencyMs += rule.latencyMs ?? 0;
      if (decision.outcome) return;
      decision.outcome = this.roll(rule);
    });
    return decision;
  }

  private roll(rule: FaultRule): FaultOutcome | null {
    const fires = (probability: number | undefined) => probability !== undefined && probability > 0 && this.rng.next() < probability;
    if (fires(rule.dropRate)) return { kind: "drop" };
    // An error status alone means "always"; an error rate alone means 503.
    const errorRate = rule.errorRate ?? (rule.errorStatus !== undefined ? 1 : undefined);
    if (fires(errorRate))
      return { kind: "error", status: rule.errorStatus ?? 503, ...(rule.retryAfter !== undefined ? { retryAfter: rule.retryAfter } : {}) };
    if (fires(rule.malformedRate)) return { kind: "malformed" };
    if (fires(rule.truncateRate)) return { kind: "truncate" };
    return null;
  }
}
