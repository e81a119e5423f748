import "server-only";

interface RequestLogLine {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  upstreamRequestId?: string;
  code?: string;
}

/**
 * One JSON line per request. Only these named fields are written, so nothing taken from a
 * request (headers, cookies, the key) can reach the log by accident.
 */
export function logRequest(line: RequestLogLine): void {
  const entry = {
    time: new Date().toISOString(),
    msg: "request",
    method: line.method,
    route: line.route,
    status: line.status,
    durationMs: Math.round(line.durationMs * 10) / 10,
    requestId: line.requestId,
    ...(line.upstreamRequestId ? { upstreamRequestId: line.upstreamRequestId } : {}),
    ...(line.code ? { code: line.code } : {}),
  };
  const text = JSON.stringify(entry);
  if (line.status >= 500) console.error(text);
  else console.info(text);
}

/** An unexpected exception: its name and message and stack, never the request. */
export function logException(requestId: string, route: string, error: unknown): void {
  const detail = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  console.error(JSON.stringify({ time: new Date().toISOString(), msg: "unhandled exception", requestId, route, ...detail }));
}
