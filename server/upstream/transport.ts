import "server-only";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/** One exchange with the upstream over node:http with keep-alive: the global fetch's instrumentation costs about a millisecond per call. */
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 128 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 128 }),
};

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborting ends the exchange; its reason becomes the error of the request or of the body stream. */
  signal: AbortSignal;
}

function responseHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** On errors rejected by `exchange`: whether the request may have left (see `requestWasSent`). */
const REQUEST_SENT = Symbol("requestSent");

/** False only when the exchange failed before a connection existed (refused, DNS, aborted early). */
export function requestWasSent(error: unknown): boolean {
  return !(typeof error === "object" && error !== null && (error as { [REQUEST_SENT]?: boolean })[REQUEST_SENT] === false);
}

export function exchange(url: URL, { method, headers, body, signal }: Exchange): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const secure = url.protocol === "https:";
    let response: IncomingMessage | undefined;
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      // A mutation gets a connection of its own: on an idle keep-alive socket the upstream may be
      // closing, a reset would leave an action's outcome unknown for no reason but the socket's age.
      { method, headers, agent: method === "GET" ? (secure ? agents.https : agents.http) : false },
      (message) => {
        response = message;
        const status = message.statusCode ?? 502;
        const stream = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>);
        if (!stream) message.resume();
        message.once("close", () => signal.removeEventListener("abort", onAbort));
        resolve(new Response(stream, { status, statusText: message.statusMessage, headers: responseHeaders(message) }));
      },
    );
    // The body may still be arriving: it fails with the same reason (a deadline stays a TimeoutError).
    const onAbort = () => {
      const reason = signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
      request.destroy(reason);
      response?.destroy(reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    // Whether the request may have reached the upstream: once on a connected socket it may have,
    // even when the socket is a reused keep-alive one that turns out closed (an ECONNRESET is ambiguous).
    let sent = false;
    request.once("socket", (socket) => {
      if (!socket.connecting) sent = true;
      else socket.once(secure ? "secureConnect" : "connect", () => (sent = true));
    });
    request.once("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(Object.assign(error, { [REQUEST_SENT]: sent }));
    });
    request.end(body);
  });
}
