import "server-only";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/**
 * One HTTP exchange with the upstream over node:http, with keep-alive connections. Route
 * handlers' global fetch carries framework instrumentation that costs about a millisecond
 * per call; this path does only what the proxy needs and hands back a standard Response
 * whose body streams.
 */
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 128 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 128 }),
};

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export interface Exchange {
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

export function exchange(url: URL, { method, headers, body, signal }: Exchange): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const secure = url.protocol === "https:";
    let response: IncomingMessage | undefined;
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      { method, headers, agent: secure ? agents.https : agents.http },
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
    request.once("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    request.end(body);
  });
}
