import { z } from "zod";

/** A calendar month, `YYYY-MM`. */
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month written YYYY-MM");

/** A monthly revenue target for a store or one channel, in the store's currency, set by anyone of the organization (who and when kept). */
export const newRevenueTargetSchema = z.strictObject({
  month: monthSchema,
  /** Absent: the whole store. */
  channel: z.string().trim().min(1).max(100).optional(),
  amount: z.number().positive("must be greater than 0").finite().max(1e12, "is too large"),
});
export type NewRevenueTarget = z.infer<typeof newRevenueTargetSchema>;

export const revenueTargetSchema = z.strictObject({
  month: z.string(),
  channel: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  setByEmail: z.string(),
  setAt: z.string(),
});
export type RevenueTarget = z.infer<typeof revenueTargetSchema>;

export const revenueTargetListSchema = z.strictObject({ targets: z.array(revenueTargetSchema) });
