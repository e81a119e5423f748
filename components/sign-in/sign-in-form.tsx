"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiRequestError } from "@/client/queries/api-client";
import { useSignIn } from "@/client/queries/session";
import { errorWords } from "@/shared/error-words";
import { errorCodeSchema } from "@/shared/schemas/error";
import { keySignInSchema, type DemoKeyOption, type SignInRequest } from "@/shared/schemas/session";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";

/** The reason for a refused key, as a person would put it: the code's wording, else the server's message. */
function refusalText(error: unknown): { text: string; requestId?: string } {
  if (!(error instanceof ApiRequestError)) return { text: "Sign-in failed. Try again." };
  const specific = error.code === "bad_request" || error.code === "rate_limited" || error.code === "forbidden";
  const words = errorCodeSchema.safeParse(error.code);
  return { text: specific || !words.success ? error.message : errorWords[words.data], requestId: error.requestId };
}

/** A refusal named by the URL after a sign-in posted without scripts. */
function serverRefusalText(refusal: { code: string; requestId?: string }): { text: string; requestId?: string } {
  const words = errorCodeSchema.safeParse(refusal.code);
  return { text: words.success ? errorWords[words.data] : "Sign-in failed. Try again.", requestId: refusal.requestId };
}

interface SignInFormProps {
  next: string;
  notice?: string;
  refusal?: { code: string; requestId?: string };
  demoKeys: DemoKeyOption[];
}

/**
 * A real form: posted to /api/session as a plain form before any script runs (the server
 * answers with a redirect), or sent by script once the page is interactive. Either way the
 * key travels in a POST body only, never in a URL.
 */
export function SignInForm({ next, notice, refusal: serverRefusal, demoKeys }: SignInFormProps) {
  const router = useRouter();
  const signIn = useSignIn();
  const [apiKey, setApiKey] = useState("");
  const [organizationId, setOrganizationId] = useState("");
  const [fieldError, setFieldError] = useState<string>();

  function submit(input: SignInRequest) {
    signIn.mutate(input, {
      onSuccess: () => {
        setApiKey("");
        router.replace(next);
      },
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.name === "demoKeyId") {
      submit({ demoKeyId: submitter.value, organizationId });
      return;
    }
    const parsed = keySignInSchema.safeParse({ apiKey, organizationId });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    submit(parsed.data);
  }

  const refusal = signIn.isError
    ? refusalText(signIn.error)
    : serverRefusal && !signIn.isPending
      ? serverRefusalText(serverRefusal)
      : undefined;

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 py-10">
      <div>
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">Store analytics</p>
        <h1 className="mt-1 text-2xl font-semibold">Sign in with your API key</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          The key stays on the dashboard&apos;s server, in an encrypted cookie. Your browser never keeps it.
        </p>
      </div>
      {notice && (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
        >
          {notice}
        </p>
      )}
      <Card>
        <form id="sign-in-form" method="post" action="/api/session" onSubmit={onSubmit} noValidate className="space-y-4">
          <input type="hidden" name="next" value={next} />
          <div>
            <label htmlFor="api-key" className="block text-sm font-medium">
              API key
            </label>
            <input
              id="api-key"
              name="apiKey"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? "api-key-error" : undefined}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
            />
            {fieldError && (
              <p id="api-key-error" className="mt-1 text-sm text-rose-700 dark:text-rose-400">
                {fieldError}
              </p>
            )}
          </div>
          <div>
            <label htmlFor="organization-id" className="block text-sm font-medium">
              Organization ID <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
            </label>
            <input
              id="organization-id"
              name="organizationId"
              value={organizationId}
              onChange={(event) => setOrganizationId(event.target.value)}
              aria-describedby="organization-id-hint"
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950"
            />
            <p id="organization-id-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Leave empty to use the organization the key was created in.
            </p>
          </div>
          {refusal && (
            <div
              role="alert"
              className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-950 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-100"
            >
              <p>{refusal.text}</p>
              {refusal.requestId && (
                <p className="mt-1 text-xs">
                  Reference for support:{" "}
                  <code className="font-mono" data-testid="request-id">
                    {refusal.requestId}
                  </code>
                </p>
              )}
            </div>
          )}
          <Button type="submit" className="w-full" disabled={signIn.isPending}>
            {signIn.isPending ? "Checking the key…" : "Sign in"}
          </Button>
        </form>
      </Card>
      {demoKeys.length > 0 && (
        <Card title="Demo keys">
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            This dashboard runs on the demo upstream. Sign in as one of its keys to try each case.
          </p>
          <ul className="space-y-2">
            {demoKeys.map((demoKey) => (
              <li key={demoKey.id}>
                <Button
                  type="submit"
                  form="sign-in-form"
                  name="demoKeyId"
                  value={demoKey.id}
                  variant="secondary"
                  className="w-full"
                  disabled={signIn.isPending}
                >
                  <span className="flex w-full items-center justify-between gap-3 text-left">
                    <span>{demoKey.label}</span>
                    <Badge tone={demoKey.state === "active" ? "good" : "warn"}>{demoKey.state}</Badge>
                  </span>
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </main>
  );
}
