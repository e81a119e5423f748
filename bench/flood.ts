/**
 * One organization's flood beside another's scheduled job, on PGlite and PostgreSQL (the server of
 * BENCH_DATABASE_URL): each storage is measured by bench/flood-run.ts in a process with the
 * server's module conditions, on a new database.
 */
import { spawn } from "node:child_process";
import { benchStorages, ROOT } from "./processes";

export async function benchFlood(): Promise<void> {
  const storages = await benchStorages();
  try {
    for (const storage of storages) {
      const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/flood-run.ts"], {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, DATABASE_URL: "", EMBEDDED_DATABASE: "", ...storage.env },
      });
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      if (code !== 0) throw new Error(`the flood bench on ${storage.name} exited with ${code}`);
    }
  } finally {
    for (const storage of storages) await storage.drop();
  }
}
