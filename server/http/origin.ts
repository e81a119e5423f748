import "server-only";
import { settings } from "@/server/config/settings";
import { HOST_HEADER } from "./forwarded";

/** Whether a state-changing request comes from our pages (Origin or Sec-Fetch-Site); neither, or `Origin: null`, is refused. */
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

/** The host the browser asked for (as the dashboard's server vouches for it, behind a proxy too), and APP_ORIGIN's. */
function allowedHosts(request: Request): string[] {
  const hosts = [request.headers.get(HOST_HEADER) ?? request.headers.get("host") ?? new URL(request.url).host];
  const { appOrigin } = settings();
  if (appOrigin) hosts.push(new URL(appOrigin).host);
  return hosts;
}
