import type { Metadata } from "next";
import { CloneCampaign } from "@/components/campaigns/clone-campaign";
import { storePageContext } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Clone a campaign" };

export default async function CampaignClonePage(props: {
  params: Promise<{ storeUrl: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { storeUrl, organizationId } = await storePageContext(props.params, props.searchParams, "/campaigns/clone");
  return <CloneCampaign storeUrl={storeUrl} organizationId={organizationId} />;
}
