import type { Metadata } from "next";
import { ActivityList } from "@/components/activity/activity-list";
import { filtersFromSearch } from "@/shared/activity-filters";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage(props: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await props.searchParams;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (typeof value === "string") search.set(name, value);
  // After sign-in, back to the same filters or entry.
  await requirePageSession(search.size > 0 ? `/activity?${search}` : "/activity");
  const entry = search.get("entry")?.slice(0, 100) || undefined;
  return <ActivityList filters={filtersFromSearch(search)} entryId={entry} />;
}
