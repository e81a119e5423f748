import { useMutation, useQueryClient } from "@tanstack/react-query";
import { cloneCampaignResponseSchema, type CloneCampaignRequest } from "@/lib/schemas/campaign-clone";
import { v1Path } from "./api-client";
import { activityKeys, sendGuardedAction } from "./activity";

interface CloneCampaignInput {
  request: CloneCampaignRequest;
  idempotencyKey: string;
}

/** POST /platform/{storeUrl}/actions/clone-linkedin-campaign, once per idempotency key. */
export function useCloneCampaign(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: CloneCampaignInput) =>
      sendGuardedAction(v1Path(["platform", storeUrl, "actions", "clone-linkedin-campaign"]), cloneCampaignResponseSchema, {
        method: "POST",
        body: request,
        idempotencyKey,
        organizationId,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  });
}
