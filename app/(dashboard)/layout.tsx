import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { RingNotices } from "@/components/shell/ring-notices";
import { pageRingNotices, pageSessionSummary } from "@/server/auth/page-session";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await pageSessionSummary();
  const notices = session ? await pageRingNotices() : [];
  return (
    <>
      {session && <AppHeader session={session} />}
      <RingNotices notices={notices} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        {children}
      </main>
    </>
  );
}
