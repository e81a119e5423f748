import type { Metadata } from "next";
import { ContextView } from "@/components/context/context-view";
import { KeyRingCard } from "@/components/context/key-ring-card";
import { demoKeyOptions } from "@/server/auth/demo-keys";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Organizations and stores" };

const one = (value: string | string[] | undefined) => (typeof value === "string" && value ? value.slice(0, 2048) : undefined);

export default async function ContextPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const selected = one(params.organizationId);
  const session = await requirePageSession(`/context${selected ? `?organizationId=${encodeURIComponent(selected)}` : ""}`);
  const outcome = {
    added: one(params.added),
    removed: one(params.removed),
    error: one(params.ringError),
    requestId: one(params.requestId),
  };
  return (
    <div className="space-y-6">
      <ContextView organizationId={selected} />
      <KeyRingCard keys={session.keys ?? []} demoKeys={demoKeyOptions()} outcome={outcome} />
    </div>
  );
}
