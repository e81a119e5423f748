import { experimental_streamedQuery as streamedQuery, useQuery } from "@tanstack/react-query";
import { portfolioLineSchema } from "@/shared/schemas/portfolio";
import { buildPath } from "@/shared/url";
import { ApiRequestError, dashboardFetch, ndjsonLines } from "./api-client";

const portfolioKeys = {
  all: ["portfolio"] as const,
  read: (query: Record<string, string>) => [...portfolioKeys.all, query] as const,
};

export const portfolioPath = (query: Record<string, string>, exported = false) =>
  buildPath(["api", "portfolio", ...(exported ? ["export"] : [])], query);

/** GET /api/portfolio, each store's row filling in as it answers; on a re-read the rows stay until the new answer is whole. */
export function usePortfolio(query: Record<string, string>) {
  return useQuery({
    queryKey: portfolioKeys.read(query),
    queryFn: streamedQuery({
      refetchMode: "replace",
      streamFn: async function* ({ signal }) {
        const response = await dashboardFetch(portfolioPath(query), { accept: "application/x-ndjson", signal });
        let whole = false;
        for await (const line of ndjsonLines(response, portfolioLineSchema, signal)) {
          whole = line.type === "result";
          yield line;
        }
        if (!whole) throw new ApiRequestError(502, "The answer ended before every store was read.", "upstream_malformed", undefined);
      },
    }),
    staleTime: 60_000,
  });
}
