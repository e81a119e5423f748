"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ApiRequestError } from "@/lib/queries/api-client";
import { useSignIn } from "@/lib/queries/session";
import { keySignInSchema, type DemoKeyOption, type SignInRequest } from "@/lib/schemas/session";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";

/** The reason for a refused key, as a person would put it. */
function refusalText(error: unknown): { text: string; requestId?: string } {
  if (!(error instanceof ApiRequestError)) return { text: "Sign-in failed. Try again." };
  const byCode: Record<string, string> = {
    key_expired: "This API key has expired. Create a new key in the service's settings (MCP, Access key fallback).",
    key_revoked: "This API key has been revoked. Create a new key in the service's settings.",
    key_invalid: "This API key is not valid. Check that it was copied whole.",
    key_unscoped: "This is an older key without store scope. Create a new key with a store selected.",
    forbidden: "This key may not use that organization. Leave the organization ID empty or use one the key belongs to.",
    rate_limited: error.message,
    bad_request: error.message,
  };
  return { text: (error.code && byCode[error.code]) || error.message, requestId: error.requestId };
}

export function SignInForm({ next, notice, demoKeys }: { next: string; notice?: string; demoKeys: DemoKeyOption[] }) {
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

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = keySignInSchema.safeParse({ apiKey, organizationId });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    submit(parsed.data);
  }

  const refusal = signIn.isError ? refusalText(signIn.error) : undefined;

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
        <form onSubmit={onSubmit} noValidate className="space-y-4">
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
                  Request ID:{" "}
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
                  variant="secondary"
                  className="w-full"
                  disabled={signIn.isPending}
                  onClick={() => submit({ demoKeyId: demoKey.id, organizationId })}
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
