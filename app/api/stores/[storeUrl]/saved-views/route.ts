import { createSavedView, listSavedViews } from "@/lib/handlers/saved-views";

export const dynamic = "force-dynamic";
export { listSavedViews as GET, createSavedView as POST };
