import type { Instrumentation } from "next";

/** Errors Next.js meets rendering a page or running a route: one JSON line each with the request's id, not Next's multi-line text. */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  const { logRenderError } = await import("@/server/observability/render-errors");
  logRenderError(error, { method: request.method, path: request.path }, context);
};
