import { currentSession, signIn, signOut } from "@/lib/handlers/session";

export const dynamic = "force-dynamic";
export { currentSession as GET, signIn as POST, signOut as DELETE };
