import { linkedinAssets } from "@/server/routes/linkedin-assets";

export const dynamic = "force-dynamic";
export const GET = linkedinAssets;
