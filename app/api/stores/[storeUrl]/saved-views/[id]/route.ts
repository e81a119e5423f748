import { deleteSavedView, renameSavedView } from "@/lib/handlers/saved-views";

export const dynamic = "force-dynamic";
export { renameSavedView as PATCH, deleteSavedView as DELETE };
