/** Request header carrying the client address this server vouches for (lib/server/client-address.ts reads it). */
export const CLIENT_ADDRESS_HEADER = "x-dashboard-client-address";

/**
 * The client's address, as far as it can be trusted. With no trusted proxy in front
 * (hops = 0), it is the socket's peer and any X-Forwarded-For sent by the client is
 * ignored; behind `hops` trusted proxies, it is the address the outermost of them saw.
 */
export function clientAddress(forwardedFor, socketAddress, hops) {
  const chain = [
    ...(forwardedFor ?? "")
      .split(",")
      .map((address) => address.trim())
      .filter(Boolean),
    socketAddress ?? "unknown",
  ];
  return chain[Math.max(0, chain.length - 1 - hops)];
}

/**
 * Replaces whatever client address header the client sent with the address this server
 * vouches for; X-Forwarded-For itself is passed on untouched.
 */
export function vouchForClient(headers, socketAddress, hops) {
  const forwarded = headers["x-forwarded-for"];
  delete headers[CLIENT_ADDRESS_HEADER];
  headers[CLIENT_ADDRESS_HEADER] = clientAddress(Array.isArray(forwarded) ? forwarded.join(",") : forwarded, socketAddress, hops);
}
