import { useMutation, useQueryClient } from "@tanstack/react-query";
import { deletedSavedViewSchema, savedViewListSchema, savedViewSchema } from "@/shared/schemas/saved-view";
import { storeResource } from "./store-resource";

const views = storeResource("saved-views", savedViewListSchema, 30_000);

/** GET /api/stores/{storeUrl}/saved-views: the organization's saved views of this store. */
export const useSavedViews = views.useList;

/** Save, rename, delete and restore: each refreshes the list. */
export function useSavedViewActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: views.keys.store(storeUrl, organizationId) });
  const send = views.sender(storeUrl, organizationId);
  return {
    save: useMutation({ mutationFn: (input: { name: string; search: string }) => send("POST", savedViewSchema, [], input), onSettled }),
    rename: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) => send("PATCH", savedViewSchema, [id], { name }),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => send("DELETE", deletedSavedViewSchema, [id]), onSettled }),
    restore: useMutation({ mutationFn: (id: string) => send("POST", savedViewSchema, [id, "restore"]), onSettled }),
  };
}
