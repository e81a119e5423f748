import { z } from "zod";

const movedSchema = z.strictObject({ before: z.number(), after: z.number(), change: z.number() });

/** A closed day whose figures changed when the dashboard read it again (a restatement). */
const dataChangeSchema = z.strictObject({
  id: z.string(),
  day: z.string(),
  source: z.enum(["conversion", "first_touch"]),
  detectedAt: z.string(),
  currency: z.string().nullable(),
  revenue: movedSchema,
  orders: movedSchema,
  units: movedSchema,
  /** The channels whose revenue moved, largest change first. */
  channels: z.array(z.strictObject({ key: z.string(), change: z.number() })),
  /** The products whose revenue moved, largest change first. */
  products: z.array(z.strictObject({ key: z.string(), name: z.string().nullable(), change: z.number() })),
});
export type DataChange = z.infer<typeof dataChangeSchema>;

export const dataChangesSchema = z.strictObject({
  changes: z.array(dataChangeSchema),
  /** Whether the dashboard keeps day rollups (ROLLUPS): without them it reads no day twice, so it finds no change. */
  watching: z.boolean(),
});
