import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { sessionResponseSchema, type SignInRequest } from "@/shared/schemas/session";
import { apiFetch } from "./api-client";
import { markSigningOut } from "./query-client";

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

/** DELETE /api/session, then a full navigation to sign-in: nothing of the session stays in memory, no in-flight call redirects first. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      markSigningOut();
      await queryClient.cancelQueries();
      await apiFetch("/api/session", z.unknown(), { method: "DELETE" }).catch(() => undefined);
    },
    onSettled: () => {
      queryClient.clear();
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full navigation on purpose
      window.location.assign("/sign-in?reason=signed_out");
    },
  });
}
