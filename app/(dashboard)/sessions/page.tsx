import type { Metadata } from "next";
import { SessionsList } from "@/components/sessions/sessions-list";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Sessions" };

export default async function SessionsPage() {
  await requirePageSession("/sessions");
  return <SessionsList />;
}
