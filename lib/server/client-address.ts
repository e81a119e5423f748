import "server-only";
import { dashboardServer } from "./lifecycle";

/** Set by scripts/server.mjs on every request, replacing any value the client sent. */
const CLIENT_ADDRESS_HEADER = "x-dashboard-client-address";

/**
 * The client address the dashboard's own server vouches for (see TRUST_PROXY_HOPS), or null
 * when the app runs under another server, where the header could be the client's own word.
 */
export function clientAddress(request: Request): string | null {
  if (!dashboardServer()?.vouchesClientAddress) return null;
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || null;
}

let warned = false;

/** Says once, when no address can be vouched for, that per-client limits are off. */
export function warnIfClientAddressUnknown(): void {
  if (warned || dashboardServer()?.vouchesClientAddress) return;
  warned = true;
  console.warn(
    "sign-in limit disabled: the client address cannot be vouched for under this server; start the dashboard with npm start / scripts/server.mjs.",
  );
}
