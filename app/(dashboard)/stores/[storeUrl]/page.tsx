import type { Metadata } from "next";
import { StoreOverview } from "@/components/store/store-overview";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Store" };

export default async function StorePage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams);
  return <StoreOverview storeUrl={storeUrl} organizationId={organizationId} />;
}
