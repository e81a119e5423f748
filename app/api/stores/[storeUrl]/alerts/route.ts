import { createAlertRule, listAlertRules } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { listAlertRules as GET, createAlertRule as POST };
