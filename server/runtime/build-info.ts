import "server-only";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { processSingleton } from "./singleton";

/** The running build: version, build id (hash of its sources) and newest migration, from release.json; a dev server says "development". */
interface BuildInfo {
  version: string;
  buildId: string;
  /** The newest migration this build applies (the schema it expects). */
  migration: string;
  builtAt: string | null;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function buildInfo(): BuildInfo {
  return processSingleton("buildInfo", () => {
    const root = /* turbopackIgnore: true */ process.cwd();
    const release = readJson(join(root, "release.json"));
    if (release) return release as unknown as BuildInfo;
    const version = String(readJson(join(root, "package.json"))?.version ?? "0.0.0");
    return { version, buildId: "development", migration: "", builtAt: null };
  });
}
