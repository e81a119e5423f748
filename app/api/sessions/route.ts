import { endOtherSessions, listSessions } from "@/lib/handlers/sessions";

export const dynamic = "force-dynamic";
export { listSessions as GET, endOtherSessions as DELETE };
