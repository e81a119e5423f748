import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { digestListSchema, digestSchema, digestSentSchema, type NewDigest } from "@/shared/schemas/digest";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";
import { grantKeys } from "./grants";

const digestsPath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, "digests", ...rest]);

const digestKeys = {
  all: ["digests"] as const,
  store: (storeUrl: string, organizationId?: string) => [...digestKeys.all, storeUrl, organizationId ?? ""] as const,
};

const digestsQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: digestKeys.store(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(digestsPath(storeUrl), digestListSchema, { signal, organizationId }),
    staleTime: 0,
  });

/** GET /api/stores/{storeUrl}/digests */
export function useDigests(storeUrl: string, organizationId?: string) {
  return useQuery(digestsQueryOptions(storeUrl, organizationId));
}

/** Schedule, delete and "Send now". */
export function useDigestActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: digestKeys.store(storeUrl, organizationId) }),
      queryClient.invalidateQueries({ queryKey: grantKeys.store(storeUrl, organizationId) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (input: NewDigest) => apiFetch(digestsPath(storeUrl), digestSchema, { organizationId, method: "POST", body: input }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        apiFetch(digestsPath(storeUrl, id), z.object({ deleted: z.boolean() }), { organizationId, method: "DELETE" }),
      onSettled: refresh,
    }),
    sendNow: useMutation({
      mutationFn: (id: string) => apiFetch(digestsPath(storeUrl, id, "send"), digestSentSchema, { organizationId, method: "POST" }),
    }),
  };
}
