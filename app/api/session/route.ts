import { currentSession, signIn, signOut } from "@/server/routes/sign-in";

export const dynamic = "force-dynamic";
export { currentSession as GET, signIn as POST, signOut as DELETE };
