import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { grantListSchema, grantSchema } from "@/shared/schemas/grant";
import { storeResource } from "./store-resource";

const grants = storeResource("grants", grantListSchema, 0);
export const grantKeys = grants.keys;

/** GET /api/stores/{storeUrl}/grants */
export const useGrants = grants.useList;

/** Grant (with consent) and revoke: each refreshes the grants and the digests that depend on them. */
export function useGrantActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const onSettled = () =>
    queryClient
      .invalidateQueries({ queryKey: grantKeys.store(storeUrl, organizationId) })
      .then(() => queryClient.invalidateQueries({ queryKey: ["digests"] }));
  const send = grants.sender(storeUrl, organizationId);
  return {
    grant: useMutation({ mutationFn: () => send("POST", grantSchema, [], { consent: true }), onSettled }),
    revoke: useMutation({ mutationFn: (id: string) => send("DELETE", z.object({ revoked: z.boolean() }), [id]), onSettled }),
  };
}
