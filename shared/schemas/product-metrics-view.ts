import { z } from "zod";
import { identifierSchema } from "./common";
import { dashboardRangeRefinement, dateRangeRefinement, productsQueryFields } from "./product-metrics";
import { tableExportFields } from "./export-manifest";

/** What the dashboard's product-metrics routes accept: the upstream query plus a comparison. */
const comparisonModes = ["previous", "year"] as const;
const comparisonModeSchema = z.enum(comparisonModes);
export type ComparisonMode = z.infer<typeof comparisonModeSchema>;

/** The filters of a view are exactly the upstream's products query. */
const metricsFiltersSchema = productsQueryFields;
export type MetricsFilters = z.infer<typeof metricsFiltersSchema>;

export const productMetricsQuerySchema = metricsFiltersSchema
  .extend({ compare: comparisonModeSchema.optional() })
  .superRefine(dateRangeRefinement)
  .superRefine(dashboardRangeRefinement);
export const breakdownQuerySchema = metricsFiltersSchema
  .extend({ productId: identifierSchema })
  .superRefine(dateRangeRefinement)
  .superRefine(dashboardRangeRefinement);
/** A download link cannot send the organization header: the pipeline also reads organizationId from any query. */
export const exportQuerySchema = metricsFiltersSchema
  .extend({ kind: z.enum(["products", "rows"]), ...tableExportFields })
  .superRefine(dateRangeRefinement)
  .superRefine(dashboardRangeRefinement);

const totalsSchema = z.strictObject({
  revenue: z.number(),
  orders: z.number(),
  units: z.number(),
  averageOrderValue: z.number().nullable(),
  unitsPerOrder: z.number().nullable(),
  rows: z.number(),
});
export type MetricsTotals = z.infer<typeof totalsSchema>;

const productSummarySchema = z.strictObject({
  productId: z.string(),
  name: z.string().nullable(),
  sku: z.string().nullable(),
  orders: z.number(),
  units: z.number(),
  revenue: z.number(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

/** One day and channel of the time series; weeks and months are summed from days in the page. */
const seriesPointSchema = z.strictObject({
  date: z.string(),
  channel: z.string(),
  revenue: z.number(),
  orders: z.number(),
  units: z.number(),
});
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

const channelSummarySchema = z.strictObject({ channel: z.string(), revenue: z.number(), orders: z.number(), units: z.number() });
export type ChannelSummary = z.infer<typeof channelSummarySchema>;

/** One product's or channel's revenue in both periods; `percent` is null when the earlier revenue is 0. */
const revenueChangeSchema = z.strictObject({
  key: z.string(),
  name: z.string().nullable(),
  current: z.number(),
  previous: z.number(),
  change: z.number(),
  percent: z.number().nullable(),
  /** change ÷ the net change of total revenue; null when the total did not move. */
  shareOfChange: z.number().nullable(),
  /** "new": no rows in the comparison period; "gone": no rows in the current one. */
  presence: z.enum(["both", "new", "gone"]),
});
export type RevenueChange = z.infer<typeof revenueChangeSchema>;

const changeRankingSchema = z.strictObject({ risers: z.array(revenueChangeSchema), fallers: z.array(revenueChangeSchema) });
export type ChangeRanking = z.infer<typeof changeRankingSchema>;

const biggestChangesSchema = z.strictObject({
  totalChange: z.number(),
  products: changeRankingSchema,
  channels: changeRankingSchema,
});
export type BiggestChanges = z.infer<typeof biggestChangesSchema>;

/** What GET /api/stores/{storeUrl}/product-metrics answers: what the page draws, never the raw rows. */
export const productMetricsViewSchema = z.strictObject({
  startDate: z.string(),
  endDate: z.string(),
  currency: z.string().nullable(),
  totals: totalsSchema,
  series: z.array(seriesPointSchema),
  channels: z.array(channelSummarySchema),
  products: z.array(productSummarySchema),
  comparison: z
    .strictObject({
      startDate: z.string(),
      endDate: z.string(),
      totals: totalsSchema,
      /** The comparison period's own day × channel series, drawn aligned by day under the current one. */
      series: z.array(seriesPointSchema),
      changes: biggestChangesSchema,
    })
    .optional(),
  /** Set when the view came from the day rollups: when its oldest figures were read, and from where. */
  freshness: z
    .strictObject({
      asOf: z.string(),
      daysFromRollups: z.number(),
      daysFromUpstream: z.number(),
      upstreamRequests: z.number(),
    })
    .optional(),
  /** Days of the range whose figures changed when read again (see the store's data changes). */
  restated: z.array(z.strictObject({ day: z.string(), revenueChange: z.number(), mostly: z.string().nullable() })).optional(),
});
export type ProductMetricsView = z.infer<typeof productMetricsViewSchema>;

export const breakdownSchema = z.strictObject({
  productId: z.string(),
  rows: z.array(
    z.strictObject({ channel: z.string(), adId: z.string().nullable(), orders: z.number(), units: z.number(), revenue: z.number() }),
  ),
});
export type ProductBreakdown = z.infer<typeof breakdownSchema>;

/** The NDJSON lines of the product-metrics route: progress while rows stream in, then one result or error. */
export const productMetricsEventSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("progress"),
    rows: z.number(),
    /** Share of the days to read that are read (0–100), and the store-local day being read: from the day rollups. */
    percent: z.number().optional(),
    day: z.string().optional(),
  }),
  z.strictObject({ type: z.literal("result"), view: productMetricsViewSchema }),
  z.strictObject({
    type: z.literal("error"),
    status: z.number(),
    error: z.string(),
    code: z.string().optional(),
    requestId: z.string().optional(),
  }),
]);
