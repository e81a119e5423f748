import { rmSync } from "node:fs";
import { afterAll } from "vitest";
import { copyOfTemplate } from "./pglite-template";

// Every test file gets its own PGlite as "the process's database", never the developer's
// DATA_DIR or DATABASE_URL; storage tests open their own databases explicitly.
const dataDir = copyOfTemplate();
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;

afterAll(async () => {
  if ((globalThis as { __dashboardDatabase?: unknown }).__dashboardDatabase) {
    const { closeDatabase } = await import("@/lib/store/database");
    await closeDatabase();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

// Route tests play the dashboard's own server: it vouches for the client address it sets in
// x-dashboard-client-address (scripts/server.mjs), so tests name their client with that header.
(globalThis as Record<symbol, unknown>)[Symbol.for("dashboard.server")] ??= {
  vouchesClientAddress: true,
  draining: false,
  shutdownHooks: [],
};
