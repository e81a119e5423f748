import "server-only";
import { currentRequest } from "@/server/runtime/request-context";
import { logger } from "./log";

/** A page or route that failed while rendering (Next's onRequestError): its error, as one line with the request's id. */
export function logRenderError(
  error: unknown,
  request: { method: string; path: string },
  context: { routePath: string; routeType: string; renderSource?: string },
): void {
  const detail = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  const digest = (error as { digest?: unknown }).digest;
  logger.error(
    {
      requestId: currentRequest()?.requestId,
      method: request.method,
      route: context.routePath,
      routeType: context.routeType,
      ...(typeof digest === "string" ? { digest } : {}),
      ...detail,
    },
    "render error",
  );
}
