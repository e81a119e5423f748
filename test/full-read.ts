import { ProductMetricsAggregator } from "@/server/metrics/aggregate";
import { openProductRows } from "@/server/metrics/product-rows";
import type { UpstreamClient } from "@/server/upstream/client";
import { currencyDecimals } from "@/shared/format";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { US_STORE } from "./harness";

/** The reference for the rollups' answers: every raw row of the range read and summed, as the dashboard did without rollups. */
export async function fullRead(client: UpstreamClient, filters: MetricsFilters) {
  const rows = await openProductRows(client, US_STORE, filters);
  const aggregator = new ProductMetricsAggregator();
  for await (const batch of rows.batches) for (const row of batch) aggregator.add(row);
  const decimals = aggregator.currency ? currencyDecimals(aggregator.currency) : 2;
  return { currency: aggregator.currency, ...aggregator.result(decimals) };
}
