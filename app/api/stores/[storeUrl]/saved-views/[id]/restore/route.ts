import { restoreSavedView } from "@/lib/handlers/saved-views";

export const dynamic = "force-dynamic";
export const POST = restoreSavedView;
