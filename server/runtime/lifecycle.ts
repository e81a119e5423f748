import "server-only";

/** What the server (server/main.ts) publishes about itself, on a process-wide symbol every bundle sees; absent in unit tests. */
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

/** Publishes the server's state for the process (server/main.ts, once, before anything else runs). */
export function publishServerState(): DashboardServerState {
  const state: DashboardServerState = { vouchesClientAddress: true, draining: false, shutdownHooks: [] };
  (globalThis as { [SERVER_STATE]?: DashboardServerState })[SERVER_STATE] = state;
  return state;
}

/** Whether the server is stopping (for readiness, which fails while draining). */
export function isDraining(): boolean {
  return dashboardServer()?.draining ?? false;
}

/** Registers work before exit (closing a database, flushing traces); `first` runs before those already registered. No-op in unit tests. */
export function onShutdown(hook: () => Promise<void>, options: { first?: boolean } = {}): void {
  const hooks = dashboardServer()?.shutdownHooks;
  if (options.first) hooks?.unshift(hook);
  else hooks?.push(hook);
}
