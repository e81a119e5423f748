import { checkAlertRules } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { checkAlertRules as POST };
