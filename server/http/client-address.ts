import "server-only";
import { dashboardServer } from "@/server/runtime/lifecycle";
import { CLIENT_ADDRESS_HEADER } from "./forwarded";

/**
 * The client address the dashboard's own server vouches for (see TRUST_PROXY_HOPS), or null
 * when the app runs under another server, where the header could be the client's own word.
 */
export function clientAddress(request: Request): string | null {
  if (!dashboardServer()?.vouchesClientAddress) return null;
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || null;
}
