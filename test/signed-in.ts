import { expect } from "vitest";
import { grantStore } from "@/server/routes/grants";
import { signIn } from "@/server/routes/sign-in";
import { callRoute, cookieFrom, dashboardRequest, sessionRequest } from "./harness";

/** Sessions by the name a test gives each key: the cookie to send, and the e-mail of the key's user. */
export interface SignedIn {
  cookies: Record<string, string>;
  emails: Record<string, string>;
}

/**
 * Signs each key in over the sign-in route, one after the other; with `granting`, each session then grants that
 * store with its consent, as the Grant page does.
 */
export async function signInEach(keys: Record<string, string>, options: { granting?: string } = {}): Promise<SignedIn> {
  const signedIn: SignedIn = { cookies: {}, emails: {} };
  for (const [name, apiKey] of Object.entries(keys)) {
    const answer = await signIn(dashboardRequest("/api/session", { method: "POST", body: JSON.stringify({ apiKey }) }));
    const cookie = cookieFrom(answer);
    signedIn.cookies[name] = cookie;
    signedIn.emails[name] = ((await answer.json()) as { session: { user: { email: string } } }).session.user.email;
    if (options.granting === undefined) continue;
    const grant = sessionRequest("POST", `/api/stores/${options.granting}/grants`, cookie, { consent: true });
    expect((await callRoute(grantStore, grant)).status).toBe(201);
  }
  return signedIn;
}
