import { z } from "zod";
import { presets } from "@/shared/metrics/date-range";
import { portfolioSorts } from "@/shared/portfolio";
import { dashboardRangeRefinement, dateRangeRefinement } from "./product-metrics";
import { isoDateSchema } from "./common";

/** GET /api/portfolio: every store of the reach over its own range in its own zone; dates apply as written, `range` per store's zone. */
const queryFields = {
  startDate: isoDateSchema.optional(),
  endDate: isoDateSchema.optional(),
  range: z.enum(presets).optional(),
  compare: z.enum(["previous", "year", "off"]).default("previous"),
};

function rangeRefinement(query: { startDate?: string; endDate?: string; range?: string }, ctx: z.RefinementCtx) {
  if (Boolean(query.startDate) !== Boolean(query.endDate))
    ctx.addIssue({ code: "custom", path: ["startDate"], message: "startDate and endDate go together" });
  if (query.startDate && query.range) ctx.addIssue({ code: "custom", path: ["range"], message: "give a range or dates, not both" });
  dateRangeRefinement(query, ctx);
  dashboardRangeRefinement(query, ctx);
}

export const portfolioQuerySchema = z.strictObject(queryFields).superRefine(rangeRefinement);
/** The export: the same reads, in the table's order. */
export const portfolioExportQuerySchema = z
  .strictObject({ ...queryFields, sort: z.enum(portfolioSorts).optional(), direction: z.enum(["asc", "desc"]).optional() })
  .superRefine(rangeRefinement);
export type PortfolioQuery = z.infer<typeof portfolioQuerySchema>;

const figuresSchema = z.strictObject({ revenue: z.number(), orders: z.number(), units: z.number(), aov: z.number().nullable() });
export type PortfolioFigures = z.infer<typeof figuresSchema>;

/** One store's figures; beside the fields the API promises, its range and its revenue per day (the sparkline). */
const storeLineSchema = z.strictObject({
  type: z.literal("store"),
  storeUrl: z.string(),
  name: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  totals: figuresSchema,
  previous: figuresSchema.nullable(),
  topChannel: z.string().nullable(),
  openAlerts: z.number(),
  asOf: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  daily: z.array(z.number()),
});
export type PortfolioStore = z.infer<typeof storeLineSchema>;

const failedLineSchema = z.strictObject({
  type: z.literal("store"),
  storeUrl: z.string(),
  error: z.strictObject({ status: z.number(), code: z.string(), message: z.string() }),
});
export type PortfolioFailure = z.infer<typeof failedLineSchema>;

const resultLineSchema = z.strictObject({
  type: z.literal("result"),
  stores: z.number(),
  totalsByCurrency: z.record(z.string(), z.strictObject({ revenue: z.number(), stores: z.number() })),
});

export const portfolioLineSchema = z.union([storeLineSchema, failedLineSchema, resultLineSchema]);
export type PortfolioLine = z.infer<typeof portfolioLineSchema>;
export type PortfolioRow = PortfolioStore | PortfolioFailure;
