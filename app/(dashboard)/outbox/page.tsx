import type { Metadata } from "next";
import { OutboxView } from "@/components/runs/outbox-view";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Outbox" };

export default async function OutboxPage(props: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { organizationId } = await props.searchParams;
  const organization = typeof organizationId === "string" && organizationId ? organizationId : undefined;
  await requirePageSession(organization ? `/outbox?organizationId=${encodeURIComponent(organization)}` : "/outbox");
  return <OutboxView organizationId={organization} />;
}
