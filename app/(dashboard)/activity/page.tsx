import type { Metadata } from "next";
import { ActivityList } from "@/components/activity/activity-list";
import { requirePageSession } from "@/lib/session/page-session";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage() {
  await requirePageSession("/activity");
  return <ActivityList />;
}
