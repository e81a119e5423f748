import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in/sign-in-form";
import { safeNextPath } from "@/lib/safe-redirect";
import { demoKeyOptions } from "@/lib/server/demo-keys";
import { hasPageSession } from "@/lib/session/page-session";
import { signInReasonText } from "@/lib/sign-in-reasons";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : undefined);
  const reason = typeof params.reason === "string" ? params.reason : undefined;
  if (!reason && (await hasPageSession())) redirect(next);
  return <SignInForm next={next} notice={signInReasonText(reason)} demoKeys={demoKeyOptions()} />;
}
