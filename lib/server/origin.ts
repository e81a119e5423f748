import "server-only";

/**
 * Whether a state-changing request comes from our own pages. Browsers send Origin on every
 * POST and DELETE, and Sec-Fetch-Site where supported; a request with neither is refused,
 * and so is `Origin: null` (sandboxed frames, some redirects).
 */
export function isSameOrigin(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return fetchSite === "same-origin";
  if (origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  return allowedHosts(request).includes(originHost);
}

function allowedHosts(request: Request): string[] {
  const hosts = [request.headers.get("host") ?? new URL(request.url).host];
  if (process.env.APP_ORIGIN) hosts.push(new URL(process.env.APP_ORIGIN).host);
  return hosts;
}
