import { rmSync } from "node:fs";
import { afterAll } from "vitest";
import { logThroughConsole } from "@/server/observability/log";
import { copyOfTemplate } from "./pglite-template";

// Every test file gets its own PGlite as "the process's database", never the developer's
// DATA_DIR or DATABASE_URL; storage tests open their own databases explicitly.
const dataDir = copyOfTemplate();
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
// Settings are checked as a whole: tests that reach no upstream still need one named (useUpstream sets the real one).
// Not passed to the processes tests start (test/processes.ts).
process.env.UPSTREAM_BASE_URL ??= "http://127.0.0.1:9/v1";

afterAll(async () => {
  if ((globalThis as { __dashboardDatabase?: unknown }).__dashboardDatabase) {
    const { closeDatabase } = await import("@/server/db/database");
    await closeDatabase();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

logThroughConsole();

// Route tests play the dashboard's own server: it vouches for the client address it sets in
// x-dashboard-client-address (server/runtime/http-server.ts), so tests name their client with that header.
(globalThis as Record<symbol, unknown>)[Symbol.for("dashboard.server")] ??= {
  vouchesClientAddress: true,
  draining: false,
  shutdownHooks: [],
};

// A query sent on a connection still busy with another (pg 8 warns, once a process; pg 9 refuses it) fails the test file.
process.on("warning", (warning) => {
  if (/already executing a query/.test(warning.message)) throw warning;
});
