import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deletedSavedViewSchema, savedViewListSchema, savedViewSchema } from "@/shared/schemas/saved-view";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";

const viewsPath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, "saved-views", ...rest]);

const savedViewKeys = {
  all: ["saved-views"] as const,
  store: (storeUrl: string, organizationId?: string) => [...savedViewKeys.all, storeUrl, organizationId ?? ""] as const,
};

const savedViewsQueryOptions = (storeUrl: string, organizationId?: string) =>
  queryOptions({
    queryKey: savedViewKeys.store(storeUrl, organizationId),
    queryFn: ({ signal }) => apiFetch(viewsPath(storeUrl), savedViewListSchema, { signal, organizationId }),
    staleTime: 30_000,
  });

/** GET /api/stores/{storeUrl}/saved-views: the organization's saved views of this store. */
export function useSavedViews(storeUrl: string, organizationId?: string) {
  return useQuery(savedViewsQueryOptions(storeUrl, organizationId));
}

/** Save, rename, delete and restore: each refreshes the list. */
export function useSavedViewActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: savedViewKeys.store(storeUrl, organizationId) });
  const options = { organizationId };
  return {
    save: useMutation({
      mutationFn: (input: { name: string; search: string }) =>
        apiFetch(viewsPath(storeUrl), savedViewSchema, { ...options, method: "POST", body: input }),
      onSettled: refresh,
    }),
    rename: useMutation({
      mutationFn: ({ id, name }: { id: string; name: string }) =>
        apiFetch(viewsPath(storeUrl, id), savedViewSchema, { ...options, method: "PATCH", body: { name } }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiFetch(viewsPath(storeUrl, id), deletedSavedViewSchema, { ...options, method: "DELETE" }),
      onSettled: refresh,
    }),
    restore: useMutation({
      mutationFn: (id: string) => apiFetch(viewsPath(storeUrl, id, "restore"), savedViewSchema, { ...options, method: "POST" }),
      onSettled: refresh,
    }),
  };
}
