import { backtestAlertRule } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { backtestAlertRule as POST };
