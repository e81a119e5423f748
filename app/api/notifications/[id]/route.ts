import { markNotification } from "@/server/routes/notifications";

export const dynamic = "force-dynamic";
export { markNotification as PATCH };
