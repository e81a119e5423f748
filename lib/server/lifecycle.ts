import "server-only";

/**
 * What scripts/server.mjs publishes about itself, on a process-wide symbol so that every bundle
 * of the app sees the same object. Absent under `next start`, `next dev` or tests.
 */
export interface DashboardServerState {
  /** The server sets x-dashboard-client-address to the client address it vouches for. */
  vouchesClientAddress: boolean;
  /** A stop was requested: requests in flight are finishing, no new connections are taken. */
  draining: boolean;
  /** Run in order once requests have finished, each for at most a few seconds. */
  shutdownHooks: Array<() => Promise<void>>;
}

const SERVER_STATE = Symbol.for("dashboard.server");

export function dashboardServer(): DashboardServerState | undefined {
  return (globalThis as { [SERVER_STATE]?: DashboardServerState })[SERVER_STATE];
}

/** Whether the server is stopping (for health checks that should fail while draining). */
export function isDraining(): boolean {
  return dashboardServer()?.draining ?? false;
}

/** Registers work to do before the process exits (closing a database, flushing a log); a no-op outside scripts/server.mjs. */
export function onShutdown(hook: () => Promise<void>): void {
  dashboardServer()?.shutdownHooks.push(hook);
}
