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
