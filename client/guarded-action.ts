import { useMutation, type MutationMeta } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { ApiRequestError } from "@/client/queries/api-client";

/**
 * The browser half of a guarded action: one Idempotency-Key per intended action, kept across retries (a retry replays the first try) until
 * the upstream answers for good; without an answer (lost, 502, 503, 504) it is kept. `fresh` mints a new key for a confirmed new action.
 */
interface GuardedAttempt<I> {
  input: I;
  idempotencyKey: string;
  /** The upstream has answered for good: a new try is a new action. */
  ended: boolean;
}

/** A fresh key for a new intended action. */
function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Whether a failure ended its attempt (a definitive answer), rather than leaving its outcome to a retry with the same key. */
export function endsAttempt(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  if (error.status === 0 || error.status === 409 || error.status === 429) return false;
  return error.status === 500 || (error.status >= 400 && error.status < 500);
}

/** The attempt a try of `input` goes out as: the current one while it is the same action and has not ended, else a new one. */
export function attemptFor<I>(
  current: GuardedAttempt<I> | undefined,
  input: I,
  { fresh = false, same = defaultSame }: { fresh?: boolean; same?: (a: I, b: I) => boolean } = {},
): GuardedAttempt<I> {
  if (!fresh && current && !current.ended && same(current.input, input)) return current;
  return { input, idempotencyKey: newIdempotencyKey(), ended: false };
}

/** The attempt once its try has settled: ended after a success or a definitive failure. */
export function settledAttempt<I>(attempt: GuardedAttempt<I>, outcome: { ok: true } | { ok: false; error: unknown }): GuardedAttempt<I> {
  return { ...attempt, ended: outcome.ok || endsAttempt(outcome.error) };
}

const defaultSame = <I>(a: I, b: I) => JSON.stringify(a) === JSON.stringify(b);

interface GuardedActionOptions<I, R> {
  /** Sends one try with the attempt's key. */
  send: (input: I, idempotencyKey: string) => Promise<R>;
  /** Runs before a try leaves (keeping the attempt on the server); when it fails, nothing is sent. */
  prepare?: (attempt: GuardedAttempt<I>) => Promise<void>;
  same?: (a: I, b: I) => boolean;
  onSuccess?: (result: R, input: I) => void;
  onError?: (error: unknown, input: I) => void;
  onSettled?: () => void;
  meta?: MutationMeta;
}

/** One guarded action's tries, keyed as above: `run` sends one, `resume` takes up an attempt kept elsewhere (the server). */
export function useGuardedAction<I, R>(options: GuardedActionOptions<I, R>) {
  const [attempt, setAttempt] = useState<GuardedAttempt<I>>();
  const latest = useRef<GuardedAttempt<I> | undefined>(undefined);
  const remember = useCallback((next: GuardedAttempt<I> | undefined) => {
    latest.current = next;
    setAttempt(next);
  }, []);
  /** Takes up an attempt kept elsewhere: its next try keeps its key unless it has ended. */
  const resume = useCallback((input: I, idempotencyKey: string, ended: boolean) => remember({ input, idempotencyKey, ended }), [remember]);
  const mutation = useMutation({
    mutationFn: async (current: GuardedAttempt<I>) => {
      await options.prepare?.(current);
      return options.send(current.input, current.idempotencyKey);
    },
    onSuccess: (result, current) => {
      remember(settledAttempt(current, { ok: true }));
      options.onSuccess?.(result, current.input);
    },
    onError: (error, current) => {
      remember(settledAttempt(current, { ok: false, error }));
      options.onError?.(error, current.input);
    },
    onSettled: () => options.onSettled?.(),
    meta: options.meta,
  });
  return {
    attempt,
    isPending: mutation.isPending,
    error: mutation.error,
    data: mutation.data,
    /** Sends a try of `input` (ignored while one is on its way); `then` hears how this try ended. */
    run(
      input: I,
      { fresh = false, then }: { fresh?: boolean; then?: { onSuccess?: (result: R) => void; onError?: (error: unknown) => void } } = {},
    ) {
      if (mutation.isPending) return;
      const next = attemptFor(latest.current, input, { fresh, same: options.same });
      remember(next);
      mutation.mutate(next, { onSuccess: then?.onSuccess && ((result) => then.onSuccess!(result)), onError: then?.onError });
    },
    resume,
    /** Forgets the attempt and its outcome: the next try is a new action. */
    reset() {
      mutation.reset();
      remember(undefined);
    },
  };
}
