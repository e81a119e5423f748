import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "./singleton";

/**
 * What the server knows about the request being handled, from the moment it arrives: its id (for the answer, the log line and the
 * upstream), and what the route learns on the way (its template, the upstream's request id, an error code). The server writes the request's
 * one log line and metrics from it when the answer is sent, whatever handled the request (a route, a page, a static file, a 404).
 */
export interface RequestContext {
  requestId: string;
  /** A well-formed X-Request-Id from a trusted proxy, adopted as the request id. */
  adoptedRequestId: boolean;
  startedAt: number;
  /** The route template, once a route has matched ("GET /api/stores/{storeUrl}/saved-views"). */
  route?: string;
  upstreamRequestId?: string;
  code?: string;
  /** A health probe: its log line follows LOG_PROBES. */
  probe?: boolean;
}

// Process-wide: the server and the app's bundles are separate copies of this module.
const storage = processSingleton("requestContext", () => new AsyncLocalStorage<RequestContext>());

export function runInRequestContext<T>(context: RequestContext, run: () => T): T {
  return storage.run(context, run);
}

/** The request being handled, when the dashboard's server is the one handling it (not in unit tests). */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}
