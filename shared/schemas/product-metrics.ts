import { z } from "zod";
import { commaListSchema, EARLIEST_DATE, identifierSchema, isoDateSchema, LATEST_DATE } from "./common";
import { daysBetween } from "@/shared/days";

const dimensionSources = ["conversion", "first_touch"] as const;
const dimensionSourceSchema = z.enum(dimensionSources);
export type DimensionSource = z.infer<typeof dimensionSourceSchema>;

/** One element of GET /ad-metrics/{storeUrl}/products (contract 2.4). */
export const productMetricRowSchema = z.looseObject({
  shop: z.string(),
  date: isoDateSchema,
  time: z.string(),
  channel: z.string(),
  ad_id: z.string().nullable().optional(),
  product_id: z.string(),
  product_name: z.string().nullable().optional(),
  product_sku: z.string().nullable().optional(),
  currency: z.string().nullable().optional(),
  orders: z.number(),
  order_count: z.number().optional(),
  units: z.number(),
  revenue: z.number(),
  avg_price: z.number().optional(),
  revenue_per_order: z.number().nullable().optional(),
  units_per_order: z.number().nullable().optional(),
});

/** startDate must not come after endDate. */
export const dateRangeRefinement = <T extends { startDate?: string; endDate?: string }>(query: T, ctx: z.RefinementCtx) => {
  if (query.startDate && query.endDate && query.startDate > query.endDate) {
    ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
  }
};

/** The longest range one dashboard read may cover: two years, leap day included. Longer reads take minutes upstream. */
const MAX_RANGE_DAYS = 731;

/** Our own bound on what we ask the upstream (the contract sets none): plausible dates, at most MAX_RANGE_DAYS per read. */
export const dashboardRangeRefinement = <T extends { startDate?: string; endDate?: string }>(query: T, ctx: z.RefinementCtx) => {
  const { startDate, endDate } = query;
  for (const [name, value] of [
    ["startDate", startDate],
    ["endDate", endDate],
  ] as const) {
    if (value && (value < EARLIEST_DATE || value > LATEST_DATE)) {
      ctx.addIssue({ code: "custom", path: [name], message: `must be between ${EARLIEST_DATE} and ${LATEST_DATE}` });
    }
  }
  if (!startDate || !endDate || startDate > endDate) return;
  const days = daysBetween(startDate, endDate) + 1;
  if (days > MAX_RANGE_DAYS) {
    ctx.addIssue({ code: "custom", path: ["endDate"], message: `the range may cover at most ${MAX_RANGE_DAYS} days (two years)` });
  }
};

/** The parameters of GET /ad-metrics/{storeUrl}/products (contract 4.4): only these exist. */
export const productsQueryFields = z.strictObject({
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

/** Query of GET /ad-metrics/{storeUrl}/products, with the dates in order. */
export const productsQuerySchema = productsQueryFields.superRefine(dateRangeRefinement);
export type ProductsQuery = z.infer<typeof productsQuerySchema>;

/** Query of GET /ad-metrics/{storeUrl}/dimensions (contract 4.5); dates optional here (the contract is silent), but as a pair. */
export const dimensionsQuerySchema = z
  .strictObject({
    startDate: isoDateSchema.optional(),
    endDate: isoDateSchema.optional(),
    channel: identifierSchema.optional(),
    adId: identifierSchema.optional(),
    dimension_source: dimensionSourceSchema.optional(),
  })
  .superRefine((query, ctx) => {
    if (Boolean(query.startDate) !== Boolean(query.endDate)) {
      ctx.addIssue({ code: "custom", path: ["startDate"], message: "startDate and endDate go together" });
    }
    dateRangeRefinement(query, ctx);
  });
export type DimensionsQuery = z.infer<typeof dimensionsQuerySchema>;

/** GET /ad-metrics/{storeUrl}/dimensions (contract 2.5). */
export const dimensionValuesSchema = z.looseObject({
  countries: z.array(z.string()),
  deviceTypes: z.array(z.string()),
  os: z.array(z.string()),
  browsers: z.array(z.string()),
  productIds: z.array(z.string()),
});
export type DimensionValues = z.infer<typeof dimensionValuesSchema>;
