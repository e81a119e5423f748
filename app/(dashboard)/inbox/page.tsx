import type { Metadata } from "next";
import { InboxList } from "@/components/inbox/inbox-list";
import { requirePageSession } from "@/server/auth/page-session";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage() {
  await requirePageSession("/inbox");
  return <InboxList />;
}
