import type { Metadata } from "next";
import { RunsView } from "@/components/runs/runs-view";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Runs and deliveries" };

export default async function RunsPage(props: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { organizationId } = await props.searchParams;
  const organization = typeof organizationId === "string" && organizationId ? organizationId : undefined;
  await requirePageSession(organization ? `/runs?organizationId=${encodeURIComponent(organization)}` : "/runs");
  return <RunsView organizationId={organization} />;
}
