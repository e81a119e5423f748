// Creates a new embedded-database data directory, in a process of its own: PostgreSQL's initdb
// under WebAssembly peaks at several hundred MB, which the dashboard's own process then never
// gives back. Run by server/db/database.ts: node pglite-initdb.mjs <directory> <settings as JSON>.
import { PGlite } from "@electric-sql/pglite";

const [dataDir, settings] = process.argv.slice(2);
const db = await PGlite.create({ dataDir, initDbStartParams: JSON.parse(settings).flatMap((setting) => ["-c", setting]) });
await db.close();
