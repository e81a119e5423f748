import { z } from "zod";
import { sortColumns } from "@/shared/metrics/view-state";

/** The product table's own state, so its export holds what it shows: its search and its sort. */
export const tableExportFields = {
  q: z.string().max(200).optional(),
  sort: z.enum(sortColumns).optional(),
  direction: z.enum(["asc", "desc"]).optional(),
};

/** A store-local day whose length is not 24 hours (a daylight-saving change). */
const irregularDaySchema = z.strictObject({ date: z.string(), hours: z.number() });

const storeFields = {
  store_url: z.string(),
  /** The store's value as sent, what the figures were read as, and a note when they differ. */
  currency: z.object({ store_value: z.string().nullable(), used: z.string(), note: z.string().optional() }),
  time_zone: z.object({ store_value: z.string(), used: z.string(), note: z.string().optional() }),
  range: z.object({
    start_date: z.string(),
    end_date: z.string(),
    /** The first and the last instant of the range in the store's zone, in UTC (end exclusive). */
    utc_start: z.string(),
    utc_end_exclusive: z.string(),
    days: z.number(),
    irregular_days: z.array(irregularDaySchema),
  }),
};
export type StoreManifestPart = z.infer<z.ZodObject<typeof storeFields>>;

/** What every export's manifest holds besides what it describes. */
const envelope = {
  manifest_version: z.literal(1),
  /** The dashboard route that made the file; with `parameters`, what "Verify" asks again. */
  endpoint: z.string(),
  parameters: z.record(z.string(), z.string()),
  dashboard_version: z.string(),
  exported_at: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  row_count: z.number().int().nonnegative(),
};

/**
 * What an export was (`<file>.manifest.json`): the server sends all but the last two fields in `x-export-manifest`; the browser adds the
 * SHA-256 and row count of the bytes saved. "Verify" reads it back.
 */
export const exportManifestSchema = z.object({
  ...envelope,
  kind: z.enum(["products", "rows"]),
  ...storeFields,
  dimension_source: z.enum(["conversion", "first_touch"]),
  /** Notes and actions of the store within the range; empty until notes travel with exports. */
  annotations: z.array(z.unknown()),
});
/** The All stores table: each store with its own currency, zone and range. */
export const portfolioManifestSchema = z.object({
  ...envelope,
  kind: z.literal("portfolio"),
  compare: z.enum(["previous", "year", "off"]),
  stores: z.array(z.object(storeFields)),
});
export type ExportManifest = z.infer<typeof exportManifestSchema>;
/** The part the server knows before the file is saved. */
export type ExportManifestBase = Omit<ExportManifest, "sha256" | "row_count">;
export const EXPORT_MANIFEST_HEADER = "x-export-manifest";
