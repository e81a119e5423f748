import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { signInNotice } from "@/shared/error-words";
import { safeNextPath } from "@/shared/safe-redirect";
import { demoKeyOptions } from "@/server/auth/demo-keys";
import { hasPageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(one(params.next));
  const reason = one(params.reason);
  const error = one(params.error);
  if (!reason && !error && (await hasPageSession())) redirect(next);
  // A refusal of a sign-in posted without scripts comes back as its code and request id only.
  const refusal = error ? { code: error, requestId: one(params.requestId)?.slice(0, 100) } : undefined;
  return <SignInForm next={next} notice={signInNotice(reason)} refusal={refusal} demoKeys={demoKeyOptions()} />;
}
