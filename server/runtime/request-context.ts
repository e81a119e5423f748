import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "./singleton";

/**
 * The request being handled: its id (answer, log, upstream) and what the route learns (template, upstream request id, error code), from
 * which the server writes the log line and metrics.
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
