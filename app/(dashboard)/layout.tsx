import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { pageSessionSummary } from "@/server/auth/page-session";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await pageSessionSummary();
  return (
    <>
      {session && <AppHeader session={session} />}
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        {children}
      </main>
    </>
  );
}
