import { randomUUID } from "node:crypto";

/** Request header carrying the protocol the browser used, as this server can vouch for it (lib/session reads it). */
export const PROTO_HEADER = "x-dashboard-proto";

/**
 * What is wrong with a request's raw path, before anything decodes or resolves it: malformed
 * percent-encoding, or a dot segment in any encoding (`%2E%2e`), which a URL parser would
 * resolve into another path. Browsers never send either.
 */
export function rawPathProblem(rawUrl) {
  const path = (rawUrl ?? "/").split("?")[0];
  for (const segment of path.split("/")) {
    let decoded;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "the path has malformed percent-encoding";
    }
    if (decoded === "." || decoded === "..") return "the path has a dot segment";
  }
  return null;
}

/** The protocol the browser used: the socket's, or behind `hops` trusted proxies what the nearest one reports. */
export function requestProtocol(headers, encrypted, hops) {
  if (encrypted) return "https";
  const forwarded = headers["x-forwarded-proto"];
  if (hops === 0 || !forwarded) return "http";
  const chain = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded).split(",").map((value) => value.trim().toLowerCase());
  return chain.at(-1) === "https" ? "https" : "http";
}

/** Answers a request refused before it reaches the app, in the Error shape, with a request id and a log line. */
export function refuse(request, response, status, message) {
  const requestId = `dash_${randomUUID()}`;
  const body = JSON.stringify({ error: message, code: "bad_request", requestId, dashboardRequestId: requestId, retryAfter: null });
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "cache-control": "no-store" });
  response.end(body);
  console.info(
    JSON.stringify({
      time: new Date().toISOString(),
      msg: "request",
      method: request.method,
      route: "(refused path)",
      status,
      durationMs: 0,
      requestId,
      code: "bad_request",
    }),
  );
}
