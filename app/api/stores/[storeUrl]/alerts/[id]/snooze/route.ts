import { snoozeAlertRule } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { snoozeAlertRule as POST };
