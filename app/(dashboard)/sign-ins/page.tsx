import type { Metadata } from "next";
import { SessionsList } from "@/components/sessions/sessions-list";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Sign-ins" };

export default async function SignInsPage() {
  await requirePageSession("/sign-ins");
  return <SessionsList />;
}
