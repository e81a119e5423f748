import { unsubscribePage } from "@/server/routes/unsubscribe";

export const dynamic = "force-dynamic";
export { unsubscribePage as GET, unsubscribePage as POST };
