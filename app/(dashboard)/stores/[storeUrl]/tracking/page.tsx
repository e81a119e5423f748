import type { Metadata } from "next";
import { ComingSoon } from "@/components/store/coming-soon";
import { storePageContext } from "@/lib/store-page";

export const metadata: Metadata = { title: "Tracking connections" };

export default async function TrackingPage(props: { params: Promise<{ storeUrl: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await storePageContext(props.params, props.searchParams, "/tracking");
  return <ComingSoon title="Tracking connections" description="The store's tracking connections, and their removal for admins, will show here." />;
}
