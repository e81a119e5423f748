import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useGuardedAction } from "@/client/guarded-action";
import { deliveryDecisionAnswerSchema, outboxSchema, runsSchema } from "@/shared/schemas/runs";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const runKeys = {
  all: ["runs"] as const,
  runs: (organizationId?: string, store?: string) => ["runs", organizationId ?? "", store ?? ""] as const,
  outbox: (organizationId?: string, store?: string) => ["outbox", organizationId ?? "", store ?? ""] as const,
};

/** `?store=` when one store of the reach is chosen. */
const storeQuery = (store?: string) => (store ? `?${new URLSearchParams({ store })}` : "");

/** Background work moves on its own: these lists refresh every few seconds while open. */
const REFRESH_MS = 5_000;

const runsQueryOptions = (organizationId?: string, store?: string) =>
  queryOptions({
    queryKey: runKeys.runs(organizationId, store),
    queryFn: ({ signal }) => apiFetch(`/api/runs${storeQuery(store)}`, runsSchema, { signal, organizationId }),
    refetchInterval: REFRESH_MS,
  });

const outboxQueryOptions = (organizationId?: string, store?: string) =>
  queryOptions({
    queryKey: runKeys.outbox(organizationId, store),
    queryFn: ({ signal }) => apiFetch(`/api/outbox${storeQuery(store)}`, outboxSchema, { signal, organizationId }),
    refetchInterval: REFRESH_MS,
  });

/** GET /api/runs: the runs and deliveries of the reach's stores, or of `store` alone. */
export function useRuns(organizationId?: string, store?: string) {
  return useQuery(runsQueryOptions(organizationId, store));
}

/** GET /api/outbox: the Outbox of the reach's stores, or of `store` alone. */
export function useOutbox(organizationId?: string, store?: string) {
  return useQuery(outboxQueryOptions(organizationId, store));
}

interface DeliveryDecisionInput {
  storeUrl: string;
  key: string;
  decision: "send_again" | "arrived";
}

/** POST …/deliveries/decisions ("Send again" or "It arrived"), with one Idempotency-Key per press so a double click sends one message. */
export function useDeliveryDecision(organizationId?: string) {
  const queryClient = useQueryClient();
  return useGuardedAction({
    send: ({ storeUrl, key, decision }: DeliveryDecisionInput, idempotencyKey: string) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "deliveries", "decisions"]), deliveryDecisionAnswerSchema, {
        organizationId,
        method: "POST",
        body: { key, decision },
        headers: { "idempotency-key": idempotencyKey },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: runKeys.all }),
  });
}
