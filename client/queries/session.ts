import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { sessionResponseSchema, type SignInRequest } from "@/shared/schemas/session";
import { apiFetch } from "./api-client";

/** POST /api/session. Pages read the signed-in user from the server, so no session query is kept here. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInRequest) => apiFetch("/api/session", sessionResponseSchema, { method: "POST", body: input }),
    // A new key sees other data: nothing cached under the previous session may show.
    onSuccess: () => queryClient.clear(),
    // Sign-in errors are shown on the form, not turned into a redirect.
    meta: { handlesSessionErrors: true },
  });
}

/** DELETE /api/session */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/session", z.unknown(), { method: "DELETE" }).catch(() => undefined),
    onSettled: () => queryClient.clear(),
  });
}
