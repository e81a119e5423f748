import type { Metadata } from "next";
import { CloneCampaign } from "@/components/campaigns/clone-campaign";
import { storePage } from "@/server/auth/store-page";

export const metadata: Metadata = { title: "Clone a campaign" };
export default storePage("/campaigns/clone", CloneCampaign);
