import "server-only";
import type { IncomingHttpHeaders } from "node:http";

/** What our own server vouches for about a request, in headers it sets itself (replacing a client's): address, protocol and host. */
export const CLIENT_ADDRESS_HEADER = "x-dashboard-client-address";
export const PROTO_HEADER = "x-dashboard-proto";
export const HOST_HEADER = "x-dashboard-host";

const list = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value.join(",") : (value ?? ""))
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** The client's address as far as it can be trusted: the socket's peer without trusted proxies, else what the outermost trusted one saw. */
export function clientAddress(forwardedFor: string | string[] | undefined, socketAddress: string | undefined, hops: number): string {
  const chain = [...list(forwardedFor), socketAddress ?? "unknown"];
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

/** The protocol the browser used: the socket's, or behind trusted proxies what the nearest one reports. */
export function requestProtocol(headers: IncomingHttpHeaders, encrypted: boolean, hops: number): "http" | "https" {
  if (encrypted) return "https";
  const forwarded = list(headers["x-forwarded-proto"]);
  if (hops === 0 || forwarded.length === 0) return "http";
  return forwarded.at(-1)!.toLowerCase() === "https" ? "https" : "http";
}

/** The host the browser asked for: behind trusted proxies, X-Forwarded-Host (nginx's `$host` drops the port, looking cross-site). */
export function requestHost(headers: IncomingHttpHeaders, hops: number): string | undefined {
  const forwarded = list(headers["x-forwarded-host"]);
  if (hops > 0 && forwarded.length > 0) return forwarded.at(-1);
  return headers.host;
}

/** Sets the vouched headers, replacing whatever a client sent under their names; X-Forwarded-* are passed on untouched. */
export function vouchForRequest(headers: IncomingHttpHeaders, socket: { remoteAddress?: string; encrypted?: boolean }, hops: number): void {
  headers[CLIENT_ADDRESS_HEADER] = clientAddress(headers["x-forwarded-for"], socket.remoteAddress, hops);
  headers[PROTO_HEADER] = requestProtocol(headers, Boolean(socket.encrypted), hops);
  const host = requestHost(headers, hops);
  if (host) headers[HOST_HEADER] = host;
  else delete headers[HOST_HEADER];
}
