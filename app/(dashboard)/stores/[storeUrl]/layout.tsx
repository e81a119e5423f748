import type { ReactNode } from "react";
import { StoreHeader } from "@/components/store/store-header";
import { StoreNav } from "@/components/shell/store-nav";

export default async function StoreLayout({ children, params }: { children: ReactNode; params: Promise<{ storeUrl: string }> }) {
  const { storeUrl } = await params;
  const decoded = decodeURIComponent(storeUrl);
  return (
    <div className="space-y-6">
      <StoreHeader storeUrl={decoded} />
      <StoreNav storeUrl={decoded} />
      {children}
    </div>
  );
}
