import type { Metadata } from "next";
import { DigestsView } from "@/components/digests/digests-view";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Digests" };

export default async function DigestsPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/digests");
  return <DigestsView storeUrl={storeUrl} organizationId={organizationId} />;
}
