/** Gzipped first-load JavaScript per route, from the production build's own diagnostics. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "./processes";

interface RouteStats {
  route: string;
  firstLoadChunkPaths: string[];
}

const CHART_ROUTES = new Set(["/stores/[storeUrl]/products"]);

export function benchBundles() {
  const stats = JSON.parse(readFileSync(join(ROOT, ".next/diagnostics/route-bundle-stats.json"), "utf8")) as RouteStats[];
  const gzipped = new Map<string, number>();
  const sizeOf = (path: string) => {
    if (!gzipped.has(path)) gzipped.set(path, gzipSync(readFileSync(join(ROOT, path))).length);
    return gzipped.get(path)!;
  };
  console.log("\nFirst-load JavaScript per route, gzipped (run `npm run build` first)");
  for (const route of [...stats].sort((a, b) => a.route.localeCompare(b.route))) {
    const kb = route.firstLoadChunkPaths.reduce((sum, path) => sum + sizeOf(path), 0) / 1024;
    const target = CHART_ROUTES.has(route.route) ? 320 : 200;
    console.log(`  ${route.route.padEnd(40)} ${kb.toFixed(1).padStart(7)} kB   (target ≤ ${target} kB${kb <= target ? "" : ", OVER"})`);
  }
  console.log("  The product-metrics page loads its charts after first load; the page benchmark counts them too.");
}
