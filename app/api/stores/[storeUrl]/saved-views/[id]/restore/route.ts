import { restoreSavedView } from "@/server/routes/saved-views";

export const dynamic = "force-dynamic";
export const POST = restoreSavedView;
