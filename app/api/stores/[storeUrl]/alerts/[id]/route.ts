import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { getAlertRule as GET, updateAlertRule as PUT, deleteAlertRule as DELETE };
