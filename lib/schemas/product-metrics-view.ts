import { z } from "zod";
import { commaListSchema, identifierSchema, isoDateSchema } from "./common";
import { dimensionSourceSchema } from "./product-metrics";

/** What the dashboard's product-metrics routes accept: the upstream query plus a comparison. */
export const comparisonModes = ["previous", "year"] as const;
export const comparisonModeSchema = z.enum(comparisonModes);
export type ComparisonMode = z.infer<typeof comparisonModeSchema>;

export const metricsFiltersSchema = z.strictObject({
  startDate: isoDateSchema,
  endDate: isoDateSchema,
  channel: identifierSchema.optional(),
  adId: identifierSchema.optional(),
  filterCountry: commaListSchema.optional(),
  filterDeviceType: commaListSchema.optional(),
  filterOS: commaListSchema.optional(),
  filterBrowser: commaListSchema.optional(),
  filterProductId: commaListSchema.optional(),
  dimension_source: dimensionSourceSchema.optional(),
});
export type MetricsFilters = z.infer<typeof metricsFiltersSchema>;

const withDateOrder = <T extends z.ZodType<{ startDate: string; endDate: string }>>(schema: T) =>
  schema.refine((query) => query.startDate <= query.endDate, { path: ["endDate"], message: "must not be before startDate" });

export const productMetricsQuerySchema = withDateOrder(metricsFiltersSchema.extend({ compare: comparisonModeSchema.optional() }));
export const breakdownQuerySchema = withDateOrder(metricsFiltersSchema.extend({ productId: identifierSchema }));
export const exportQuerySchema = withDateOrder(metricsFiltersSchema.extend({ kind: z.enum(["products", "rows"]) }));

const totalsSchema = z.strictObject({
  revenue: z.number(),
  orders: z.number(),
  units: z.number(),
  averageOrderValue: z.number().nullable(),
  unitsPerOrder: z.number().nullable(),
  rows: z.number(),
});
export type MetricsTotals = z.infer<typeof totalsSchema>;

export const productSummarySchema = z.strictObject({
  productId: z.string(),
  name: z.string().nullable(),
  sku: z.string().nullable(),
  orders: z.number(),
  units: z.number(),
  revenue: z.number(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

/** One day and channel of the time series; weeks and months are summed from days in the page. */
export const seriesPointSchema = z.strictObject({ date: z.string(), channel: z.string(), revenue: z.number(), orders: z.number() });
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

export const channelSummarySchema = z.strictObject({ channel: z.string(), revenue: z.number(), orders: z.number(), units: z.number() });
export type ChannelSummary = z.infer<typeof channelSummarySchema>;

/** What GET /api/stores/{storeUrl}/product-metrics answers: what the page draws, never the raw rows. */
export const productMetricsViewSchema = z.strictObject({
  startDate: z.string(),
  endDate: z.string(),
  currency: z.string().nullable(),
  totals: totalsSchema,
  series: z.array(seriesPointSchema),
  channels: z.array(channelSummarySchema),
  products: z.array(productSummarySchema),
  comparison: z.strictObject({ startDate: z.string(), endDate: z.string(), totals: totalsSchema }).optional(),
});
export type ProductMetricsView = z.infer<typeof productMetricsViewSchema>;

export const breakdownSchema = z.strictObject({
  productId: z.string(),
  rows: z.array(z.strictObject({ channel: z.string(), adId: z.string().nullable(), orders: z.number(), units: z.number(), revenue: z.number() })),
});
export type ProductBreakdown = z.infer<typeof breakdownSchema>;

/** The NDJSON lines of the product-metrics route: progress while rows stream in, then one result or error. */
export const productMetricsEventSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("progress"), rows: z.number() }),
  z.strictObject({ type: z.literal("result"), view: productMetricsViewSchema }),
  z.strictObject({ type: z.literal("error"), status: z.number(), error: z.string(), code: z.string().optional(), requestId: z.string().optional() }),
]);
