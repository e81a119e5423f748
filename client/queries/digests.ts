import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
import { apiFetch } from "./api-client";
import { grantKeys } from "./grants";
import { storeResource } from "./store-resource";

const digests = storeResource("digests", digestListSchema, 0);
const portfolioKey = [...digests.keys.all, "portfolio"] as const;

/** GET /api/stores/{storeUrl}/digests */
export const useDigests = digests.useList;

/** Schedule, change, delete and "Send now". */
export function useDigestActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const onSettled = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: digests.keys.all }),
      queryClient.invalidateQueries({ queryKey: grantKeys.store(storeUrl, organizationId) }),
    ]);
  const send = digests.sender(storeUrl, organizationId);
  return {
    create: useMutation({ mutationFn: (input: NewDigest) => send("POST", digestSchema, [], input), onSettled }),
    change: useMutation({
      mutationFn: ({ id, ...input }: DigestChange & { id: string }) => send("PATCH", digestSchema, [id], input),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => send("DELETE", z.object({ deleted: z.boolean() }), [id]), onSettled }),
    sendNow: useMutation({ mutationFn: (id: string) => send("POST", digestSentSchema, [id, "send"]) }),
  };
}

/** GET /api/portfolio/digests: the digests of several stores, and the stores the signed-in person has granted. */
export function usePortfolioDigests() {
  return useQuery({
    queryKey: portfolioKey,
    queryFn: ({ signal }) => apiFetch("/api/portfolio/digests", portfolioDigestListSchema, { signal }),
    staleTime: 0,
  });
}

export function useCreatePortfolioDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPortfolioDigest) => apiFetch("/api/portfolio/digests", digestSchema, { method: "POST", body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: portfolioKey }),
  });
}
