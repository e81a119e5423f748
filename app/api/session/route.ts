import { currentSession, signIn, signOut } from "@/lib/session/sign-in";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => currentSession(request);
export const POST = (request: Request) => signIn(request);
export const DELETE = (request: Request) => signOut(request);
