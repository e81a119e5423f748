import "server-only";

export interface RequestLogLine {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  upstreamRequestId?: string;
}

/**
 * One JSON line per request. Only these named fields are written, so nothing taken from a
 * request (headers, cookies, the key) can reach the log by accident.
 */
export function logRequest(line: RequestLogLine): void {
  console.info(
    JSON.stringify({
      time: new Date().toISOString(),
      msg: "request",
      method: line.method,
      route: line.route,
      status: line.status,
      durationMs: Math.round(line.durationMs * 10) / 10,
      requestId: line.requestId,
      ...(line.upstreamRequestId ? { upstreamRequestId: line.upstreamRequestId } : {}),
    }),
  );
}
