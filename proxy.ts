import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy } from "@/server/http/csp";

/** Before every page: a fresh CSP nonce, and visitors without a session cookie sent to sign in (a convenience: pages check the session). */
export function proxy(request: NextRequest) {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const { pathname, search } = request.nextUrl;

  if (!decodes(pathname)) {
    return new NextResponse("Bad request: the path has malformed percent-encoding.", {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const needsSession =
    pathname === "/context" ||
    pathname.startsWith("/stores/") ||
    pathname === "/activity" ||
    pathname === "/sessions" ||
    pathname === "/sign-ins";
  if (needsSession && !request.cookies.has("session") && !request.cookies.has("__Host-session")) {
    const signIn = new URL("/sign-in", request.url);
    const reason = request.cookies.get("session_ended")?.value;
    if (reason && /^(key_(expired|revoked|invalid)|session_(revoked|expired|idle))$/.test(reason))
      signIn.searchParams.set("reason", reason);
    signIn.searchParams.set("next", `${pathname}${search}`);
    return NextResponse.redirect(signIn);
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  matcher: [{ source: "/((?!api/|_next/static|_next/image|favicon.ico).*)", missing: [{ type: "header", key: "next-router-prefetch" }] }],
};
