import type { Metadata } from "next";
import { TrackingConnections } from "@/components/tracking/tracking-connections";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Tracking connections" };

export default async function TrackingPage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/tracking");
  return <TrackingConnections storeUrl={storeUrl} organizationId={organizationId} />;
}
