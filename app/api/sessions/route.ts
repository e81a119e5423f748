import { endOtherSessions, listSessions } from "@/server/routes/sessions";

export const dynamic = "force-dynamic";
export { listSessions as GET, endOtherSessions as DELETE };
