import "server-only";
import pino, { type Logger } from "pino";
import { processSingleton } from "@/server/runtime/singleton";

/** The one event stream: pino JSON lines on stdout, named fields only (never a request, header or key); credential paths are censored. */
const sink = processSingleton("logSink", () => {
  const stdout = pino.destination({ dest: 1, sync: true });
  return { write: (line: string): void => void stdout.write(line) };
});

export const logger: Logger = processSingleton("logger", () =>
  pino(
    {
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ["apiKey", "*.apiKey", "key", "*.key", "cookie", "*.cookie", "authorization", "*.authorization", "password", "*.password"],
        censor: "[redacted]",
      },
    },
    { write: (line: string) => sink.write(line) },
  ),
);

/** Tests: lines go through the console, which the test runner shows for failing tests only. */
export function logThroughConsole(): void {
  sink.write = (line) => console.info(line.trimEnd());
}

/** Tests: every line written while `run` runs, parsed. */
export async function captureLogLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const previous = sink.write;
  sink.write = (line) => void lines.push(line);
  try {
    await run();
  } finally {
    sink.write = previous;
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface RequestLogLine {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  upstreamRequestId?: string;
  code?: string;
}

/** One line per request, of named fields only, so nothing from a request can reach the log by accident. */
export function logRequest(line: RequestLogLine): void {
  const entry = {
    method: line.method,
    route: line.route,
    status: line.status,
    durationMs: Math.round(line.durationMs * 10) / 10,
    requestId: line.requestId,
    ...(line.upstreamRequestId ? { upstreamRequestId: line.upstreamRequestId } : {}),
    ...(line.code ? { code: line.code } : {}),
  };
  if (line.status >= 500) logger.error(entry, "request");
  else logger.info(entry, "request");
}

/** An unexpected exception: its name, message and stack (as fields of one line), never the request. */
export function logException(requestId: string, route: string, error: unknown): void {
  const detail = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  logger.error({ requestId, route, ...detail }, "unhandled exception");
}
