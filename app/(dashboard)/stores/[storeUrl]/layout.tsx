import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { StoreHeader } from "@/components/store/store-header";
import { StoreNav } from "@/components/shell/store-nav";
import { storeWithinReach } from "@/server/auth/store-page";

export default async function StoreLayout({ children, params }: { children: ReactNode; params: Promise<{ storeUrl: string }> }) {
  const { storeUrl } = await params;
  const decoded = decodeURIComponent(storeUrl);
  // A store the key cannot reach is a 404 with one message, not store tabs whose panels all fail.
  if ((await storeWithinReach(decoded)) === false) notFound();
  return (
    <div className="space-y-6">
      <StoreHeader storeUrl={decoded} />
      <StoreNav storeUrl={decoded} />
      {children}
    </div>
  );
}
