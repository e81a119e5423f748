import { muteAlertRule } from "@/server/routes/alerts";

export const dynamic = "force-dynamic";
export { muteAlertRule as POST };
