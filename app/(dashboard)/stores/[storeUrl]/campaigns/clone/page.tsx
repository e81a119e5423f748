import type { Metadata } from "next";
import { ComingSoon } from "@/components/store/coming-soon";
import { storePageContext } from "@/lib/store-page";

export const metadata: Metadata = { title: "Clone a campaign" };

export default async function CampaignClonePage(props: { params: Promise<{ storeUrl: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await storePageContext(props.params, props.searchParams, "/campaigns/clone");
  return <ComingSoon title="Clone a campaign group" description="A guarded form to clone a LinkedIn campaign group will show here." />;
}
