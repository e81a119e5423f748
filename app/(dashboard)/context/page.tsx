import type { Metadata } from "next";
import { ContextView } from "@/components/context/context-view";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Organizations and stores" };

export default async function ContextPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { organizationId } = await searchParams;
  const selected = typeof organizationId === "string" && organizationId ? organizationId : undefined;
  await requirePageSession(`/context${selected ? `?organizationId=${encodeURIComponent(selected)}` : ""}`);
  return <ContextView organizationId={selected} />;
}
