import { createSavedView, listSavedViews } from "@/server/routes/saved-views";

export const dynamic = "force-dynamic";
export { listSavedViews as GET, createSavedView as POST };
