import "server-only";
import type { MetricsFilters } from "@/shared/schemas/product-metrics-view";
import { DashboardError } from "@/server/http/responses";
import { UpstreamFailure, UpstreamHttpError, type UpstreamClient } from "@/server/upstream/client";
import { isMetricRow, type MetricRow } from "./aggregate";
import { settings } from "@/server/config/settings";
import { MalformedJsonError, readJsonArray } from "./json-array-stream";
import { RowShapeError, type RowSumsOptions } from "./row-sums";
import { sumRowBody, type Summed } from "./rows-off-thread";

export interface ProductRows {
  upstreamRequestId?: string;
  /** The rows themselves, in batches. */
  batches: AsyncIterable<MetricRow[]>;
  /**
   * Instead of the rows, their sums (a view's aggregation, or the day segments of the rollups),
   * made off the event loop unless ROW_WORKERS=off. Either this or `batches`, never both.
   */
  summed: (options: RowSumsOptions) => AsyncIterable<Summed>;
}

/** The upstream's own failure words for a body that broke off or did not parse. */
function streamFailure(error: unknown, upstreamRequestId?: string): Error {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof RowShapeError) return shapeFailure(upstreamRequestId);
  if (error instanceof MalformedJsonError) {
    return new UpstreamFailure(
      502,
      "upstream_malformed",
      `The analytics service answered with malformed rows (${error.message}).`,
      upstreamRequestId,
    );
  }
  // The deadline passed while rows were still arriving: the range was too much for one read.
  if (error instanceof Error && error.name === "TimeoutError") {
    return new DashboardError(
      504,
      "range_too_long",
      "Reading this range took longer than the deadline allows. Try a shorter range or fewer filters.",
      {
        upstreamRequestId,
      },
    );
  }
  return new UpstreamFailure(502, "upstream_unavailable", "The analytics service's answer was cut off.", upstreamRequestId);
}

const shapeFailure = (upstreamRequestId?: string) =>
  new UpstreamFailure(502, "upstream_malformed", "The analytics service answered with a row in an unexpected shape.", upstreamRequestId);

async function* validatedBatches(body: ReadableStream<Uint8Array>, upstreamRequestId?: string): AsyncGenerator<MetricRow[]> {
  try {
    for await (const batch of readJsonArray(body)) {
      for (const row of batch) {
        if (!isMetricRow(row)) throw shapeFailure(upstreamRequestId);
      }
      yield batch as MetricRow[];
    }
  } catch (error) {
    throw streamFailure(error, upstreamRequestId);
  }
}

async function* mappedFailures(sums: AsyncIterable<Summed>, upstreamRequestId?: string): AsyncGenerator<Summed> {
  try {
    yield* sums;
  } catch (error) {
    throw streamFailure(error, upstreamRequestId);
  }
}

/**
 * Opens GET /ad-metrics/{storeUrl}/products and resolves once the upstream has answered
 * 200, so that an error status is known before anything is sent on. The rows then stream
 * in batches, validated one by one, and are never held whole.
 */
export async function openProductRows(upstream: UpstreamClient, storeUrl: string, filters: MetricsFilters): Promise<ProductRows> {
  const response = await upstream.send("products", { params: { storeUrl }, query: filters });
  const upstreamRequestId = response.headers.get("x-request-id") ?? undefined;
  if (!response.ok) throw await UpstreamHttpError.from(response);
  if (!response.body)
    throw new UpstreamFailure(502, "upstream_malformed", "The analytics service answered without a body.", upstreamRequestId);
  const body = response.body;
  return {
    upstreamRequestId,
    batches: validatedBatches(body, upstreamRequestId),
    summed: (options) => mappedFailures(sumRowBody(body, options, settings().upstream.rowWorkers), upstreamRequestId),
  };
}
