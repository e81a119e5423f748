import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api-client";

let signingOut = false;

/** Signing out: in-flight answers saying the session ended are no reason to show "not signed in" (the navigation after forgets this). */
export function markSigningOut() {
  signingOut = true;
}

/** Sends the user to sign in, saying why, when a call shows the session has ended. */
function onSessionEnded(error: unknown) {
  if (!(error instanceof ApiRequestError) || !error.endsSession || typeof window === "undefined" || signingOut) return;
  const next = `${window.location.pathname}${window.location.search}`;
  const reason = error.code ?? "no_session";
  // A full navigation, not a client-side one: nothing of the ended session stays in memory.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/sign-in?reason=${encodeURIComponent(reason)}&next=${encodeURIComponent(next)}`);
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onSessionEnded }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _result, mutation) => {
        if (!mutation.meta?.handlesSessionErrors) onSessionEnded(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // Each answer keeps its own identity, so that `requestIdOf` still finds its request id.
        structuralSharing: false,
        // Only a lost connection, or a call that left just before the key ring changed (the browser
        // holds the newer cookie now), is worth one more try: the server already retried the upstream's 5xx once.
        retry: (failureCount, error) =>
          error instanceof ApiRequestError && (error.status === 0 || error.code === "ring_changed") && failureCount < 1,
      },
      mutations: { retry: false },
    },
  });
}
