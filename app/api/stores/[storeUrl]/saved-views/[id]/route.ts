import { deleteSavedView, renameSavedView } from "@/server/routes/saved-views";

export const dynamic = "force-dynamic";
export { renameSavedView as PATCH, deleteSavedView as DELETE };
