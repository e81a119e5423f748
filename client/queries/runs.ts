import { queryOptions, useQuery } from "@tanstack/react-query";
import { outboxSchema, runsSchema } from "@/shared/schemas/runs";
import { apiFetch } from "./api-client";

const runKeys = {
  runs: (organizationId?: string) => ["runs", organizationId ?? ""] as const,
  outbox: (organizationId?: string) => ["outbox", organizationId ?? ""] as const,
};

/** Background work moves on its own: these lists refresh every few seconds while open. */
const REFRESH_MS = 5_000;

const runsQueryOptions = (organizationId?: string) =>
  queryOptions({
    queryKey: runKeys.runs(organizationId),
    queryFn: ({ signal }) => apiFetch("/api/runs", runsSchema, { signal, organizationId }),
    refetchInterval: REFRESH_MS,
  });

const outboxQueryOptions = (organizationId?: string) =>
  queryOptions({
    queryKey: runKeys.outbox(organizationId),
    queryFn: ({ signal }) => apiFetch("/api/outbox", outboxSchema, { signal, organizationId }),
    refetchInterval: REFRESH_MS,
  });

/** GET /api/runs */
export function useRuns(organizationId?: string) {
  return useQuery(runsQueryOptions(organizationId));
}

/** GET /api/outbox */
export function useOutbox(organizationId?: string) {
  return useQuery(outboxQueryOptions(organizationId));
}
