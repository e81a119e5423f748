import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { annotationsSchema } from "@/shared/schemas/annotation";
import { noteSchema, type NewNote } from "@/shared/schemas/note";
import type { DateRange } from "@/shared/metrics/date-range";
import { buildPath } from "@/shared/url";
import { apiFetch } from "./api-client";
import { z } from "zod";

const storePath = (storeUrl: string, ...rest: string[]) => buildPath(["api", "stores", storeUrl, ...rest]);

const annotationKeys = {
  all: ["annotations"] as const,
  store: (storeUrl: string, organizationId?: string) => [...annotationKeys.all, storeUrl, organizationId ?? ""] as const,
  range: (storeUrl: string, range: DateRange, organizationId?: string) =>
    [...annotationKeys.store(storeUrl, organizationId), range.startDate, range.endDate] as const,
};

const annotationsQueryOptions = (storeUrl: string, range: DateRange, organizationId?: string) =>
  queryOptions({
    queryKey: annotationKeys.range(storeUrl, range, organizationId),
    queryFn: ({ signal }) =>
      apiFetch(buildPath(["api", "stores", storeUrl, "annotations"], { ...range }), annotationsSchema, { signal, organizationId }),
    staleTime: 30_000,
  });

/** GET /api/stores/{storeUrl}/annotations: the notes and guarded actions of a range. */
export function useAnnotations(storeUrl: string, range: DateRange, organizationId?: string) {
  return useQuery({ ...annotationsQueryOptions(storeUrl, range, organizationId), placeholderData: (previous) => previous });
}

/** Add, change and delete a note: each refreshes every range of the store. */
export function useNoteActions(storeUrl: string, organizationId?: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: annotationKeys.store(storeUrl, organizationId) });
  const options = { organizationId };
  return {
    add: useMutation({
      mutationFn: (note: NewNote) => apiFetch(storePath(storeUrl, "notes"), noteSchema, { ...options, method: "POST", body: note }),
      onSettled: refresh,
    }),
    change: useMutation({
      mutationFn: ({ id, note }: { id: string; note: NewNote }) =>
        apiFetch(storePath(storeUrl, "notes", id), noteSchema, { ...options, method: "PATCH", body: note }),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        apiFetch(storePath(storeUrl, "notes", id), z.strictObject({ deleted: z.string() }), { ...options, method: "DELETE" }),
      onSettled: refresh,
    }),
  };
}
