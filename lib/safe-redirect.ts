const FALLBACK = "/context";
const BASE = "http://dashboard.invalid";

/**
 * Where to send the user after sign-in: a path on this site only. Anything that could
 * leave it (`//host`, `/\host`, `https://…`, control characters) falls back to the home page.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return FALLBACK;
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return FALLBACK;
  try {
    const url = new URL(next, BASE);
    if (url.origin !== BASE || url.pathname.startsWith("/sign-in") || url.pathname.startsWith("/api/")) return FALLBACK;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return FALLBACK;
  }
}
