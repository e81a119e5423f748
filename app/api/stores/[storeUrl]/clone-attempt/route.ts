import { currentCloneAttempt, dismissClone, keepCloneAttempt } from "@/server/routes/clone-attempts";

export const dynamic = "force-dynamic";
export { currentCloneAttempt as GET, keepCloneAttempt as PUT, dismissClone as DELETE };
