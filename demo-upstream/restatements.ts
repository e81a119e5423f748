/**
 * Restated days: a store-day's revenue multiplied by a factor from now on, as when a shop's
 * refunds or late orders change a closed day (PUT /__control/restate). Orders and units stay.
 */

import { z } from "zod";
import { isoDateSchema } from "@/shared/schemas/common";
import { dayNumber, findStore } from "./fixtures";

export const restateSchema = z.strictObject({
  storeUrl: z.string().refine((url) => findStore(url) !== undefined, "is not a store of the demo upstream"),
  date: isoDateSchema,
  /** Multiplies each of the day's rows' revenue; 1 undoes a restatement. */
  factor: z.number().positive().max(1000),
});
export type Restatement = z.infer<typeof restateSchema>;

export class Restatements {
  private readonly factors = new Map<string, Restatement>();

  set(restatement: Restatement): void {
    const key = `${restatement.storeUrl}\u0000${dayNumber(restatement.date)}`;
    if (restatement.factor === 1) this.factors.delete(key);
    else this.factors.set(key, { ...restatement });
  }

  /** The factor for one store-local day, or null when the day is as generated. */
  factorFor(storeUrl: string, day: number): number | null {
    return this.factors.get(`${storeUrl}\u0000${day}`)?.factor ?? null;
  }

  list(): Restatement[] {
    return [...this.factors.values()].map((restatement) => ({ ...restatement }));
  }

  reset(): void {
    this.factors.clear();
  }
}
