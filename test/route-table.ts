/** The dashboard's route table, read from the route files under app/api: what every scope test walks. */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { HttpMethod, RouteHandler } from "@/server/http/pipeline";
import { ROOT } from "./processes";

export interface TableRoute {
  /** The route file's folder under app/, in Next's syntax. */
  path: string;
  method: HttpMethod;
  handler: RouteHandler;
}

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routeFiles(join(dir, entry.name)) : entry.name === "route.ts" ? [join(dir, entry.name)] : [],
  );
}

/** Every (path, method) the app answers, with the handler its route file exports. */
export async function routeTable(): Promise<TableRoute[]> {
  const app = join(ROOT, "app");
  const table: TableRoute[] = [];
  for (const file of routeFiles(join(app, "api")).sort()) {
    const path = `/${relative(app, file).replace(/\/route\.ts$/, "")}`;
    const routeModule = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = routeModule[method];
      if (handler !== undefined) table.push({ path, method, handler: handler as RouteHandler });
    }
  }
  return table;
}
