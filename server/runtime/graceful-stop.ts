import "server-only";
import type { Server } from "node:http";
import { logger } from "@/server/observability/log";
import { metrics } from "@/server/observability/metrics";
import type { DashboardServerState } from "./lifecycle";

const HOOK_TIMEOUT_MS = 5_000;
/** Within this, a second signal is the first one delivered twice (Ctrl-C reaches the whole process group). */
const DUPLICATE_SIGNAL_MS = 1_000;

/** Settles with the promise's outcome, or with `onTimeout` after `ms`; the timer keeps the process alive meanwhile. */
function within<T>(promise: Promise<T>, ms: number, onTimeout: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(onTimeout), ms)));
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

async function runShutdownHooks(state: DashboardServerState): Promise<void> {
  for (const hook of state.shutdownHooks) {
    const ran = Promise.resolve()
      .then(hook)
      .then(
        () => "done",
        (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    const outcome = await within(ran, HOOK_TIMEOUT_MS, `did not finish within ${HOOK_TIMEOUT_MS} ms`);
    if (outcome !== "done") logger.error(`A shutdown hook ${outcome}.`);
  }
}

/**
 * SIGTERM/SIGINT: readiness drains, no new connections, requests finish within `graceMs` (then are cut), hooks run, exit 0; a second signal
 * over a second later exits 1. `whileDraining` shares the grace (the worker stops claiming and finishes its runs).
 */
export function stopGracefullyOnSignals(
  servers: Server[],
  state: DashboardServerState,
  graceMs: number,
  whileDraining: () => Promise<void> = async () => undefined,
): void {
  let signalledAt = 0;
  const stop = async (signal: string) => {
    if (state.draining) {
      if (Date.now() - signalledAt < DUPLICATE_SIGNAL_MS) return;
      logger.error(`${signal} again: stopping now.`);
      process.exit(1);
    }
    signalledAt = Date.now();
    state.draining = true;
    metrics.draining.set(1);
    logger.info(`${signal}: finishing the requests in flight (up to ${graceMs} ms), then stopping.`);
    const jobs = whileDraining().catch((error: unknown) => logger.error(`Stopping the background work failed: ${String(error)}`));
    const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    for (const server of servers) server.closeIdleConnections();
    const drained = await within(
      closed.then(() => true),
      graceMs,
      false,
    );
    await jobs;
    if (!drained) {
      logger.error(`Requests still in flight after ${graceMs} ms: closing their connections.`);
      for (const server of servers) server.closeAllConnections();
    }
    await runShutdownHooks(state);
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
