import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  digestListSchema,
  digestSchema,
  digestSentSchema,
  portfolioDigestListSchema,
  type DigestChange,
  type NewDigest,
  type NewPortfolioDigest,
} from "@/shared/schemas/digest";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";
import { grantKeys } from "./grants";

const digestsPath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, "digests", ...rest]);

const digestKeys = {
  all: ["digests"] as const,
  store: (storeUrl: string, organizationId?: string) => [...digestKeys.all, storeUrl, organizationId ?? ""] as const,
  portfolio: () => [...digestKeys.all, "portfolio"] as const,
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

/** Schedule, change, delete and "Send now". */
export function useDigestActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: digestKeys.all }),
      queryClient.invalidateQueries({ queryKey: grantKeys.store(storeUrl, organizationId) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (input: NewDigest) => apiFetch(digestsPath(storeUrl), digestSchema, { organizationId, method: "POST", body: input }),
      onSettled: refresh,
    }),
    change: useMutation({
      mutationFn: ({ id, ...input }: DigestChange & { id: string }) =>
        apiFetch(digestsPath(storeUrl, id), digestSchema, { organizationId, method: "PATCH", body: input }),
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

/** GET /api/portfolio/digests: the digests of several stores, and the stores the signed-in person has granted. */
export function usePortfolioDigests() {
  return useQuery({
    queryKey: digestKeys.portfolio(),
    queryFn: ({ signal }) => apiFetch("/api/portfolio/digests", portfolioDigestListSchema, { signal }),
    staleTime: 0,
  });
}

export function useCreatePortfolioDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPortfolioDigest) => apiFetch("/api/portfolio/digests", digestSchema, { method: "POST", body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: digestKeys.portfolio() }),
  });
}
