import { queryOptions, useQuery } from "@tanstack/react-query";
import { contextSchema } from "@/shared/schemas/context";
import { apiFetch, v1Path } from "./api-client";

const contextKeys = {
  all: ["context"] as const,
  detail: (organizationId: string | undefined) => [...contextKeys.all, organizationId ?? null] as const,
};

const contextQueryOptions = (organizationId?: string) =>
  queryOptions({
    queryKey: contextKeys.detail(organizationId),
    queryFn: ({ signal }) => apiFetch(v1Path(["context"], { organizationId }), contextSchema, { signal }),
  });

/** GET /context: the user, the organizations and their stores. */
export function useStoreContext(organizationId?: string) {
  return useQuery(contextQueryOptions(organizationId));
}
