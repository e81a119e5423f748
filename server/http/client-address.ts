import "server-only";
import { dashboardServer } from "@/server/runtime/lifecycle";
import { CLIENT_ADDRESS_HEADER } from "./forwarded";

/** The client address our own server vouches for (TRUST_PROXY_HOPS), or null under another server, where the header could be forged. */
export function clientAddress(request: Request): string | null {
  if (!dashboardServer()?.vouchesClientAddress) return null;
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || null;
}
