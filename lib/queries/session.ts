import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { sessionResponseSchema, type SignInRequest } from "@/lib/schemas/session";
import { apiFetch } from "./api-client";

export const sessionKeys = { all: ["session"] as const };

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionKeys.all, queryFn: ({ signal }) => apiFetch("/api/session", sessionResponseSchema, { signal }) });

export function useSession() {
  return useQuery(sessionQueryOptions());
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInRequest) => apiFetch("/api/session", sessionResponseSchema, { method: "POST", body: input }),
    // A new key sees other data: nothing cached under the previous session may show.
    onSuccess: (data) => {
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.all, { session: data.session });
    },
    // Sign-in errors are shown on the form, not turned into a redirect.
    meta: { handlesSessionErrors: true },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/session", z.unknown(), { method: "DELETE" }).catch(() => undefined),
    onSettled: () => queryClient.clear(),
  });
}
