/**
 * Runs the benchmarks: `npm run bench` for all, `npm run bench:proxy` (or `-- proxy`) for one.
 * Each prints its figures next to a baseline measured in the same run.
 */
import { benchActions } from "./actions";
import { benchAlerts } from "./alerts";
import { benchAggregation } from "./aggregation";
import { benchBundles } from "./bundles";
import { benchColdRead } from "./coldread";
import { benchDeepBodies } from "./deep-bodies";
import { benchDigests } from "./digests";
import { benchFlood } from "./flood";
import { benchIdle } from "./idle";
import { benchIsolation } from "./isolation";
import { measureDemoUpstreamLargeResponse } from "./demo-upstream";
import { benchMemory } from "./memory";
import { benchPage } from "./page";
import { benchPortfolio } from "./portfolio";
import { benchProxy } from "./proxy";
import { benchRollups } from "./rollups";
import { benchRetention } from "./retention";
import { benchScanner } from "./scanner";

const benches: Record<string, () => Promise<unknown>> = {
  proxy: () => benchProxy(),
  actions: () => benchActions(),
  alerts: () => benchAlerts(),
  aggregation: () => benchAggregation(),
  page: () => benchPage(),
  memory: () => benchMemory(),
  bundles: async () => benchBundles(),
  digests: () => benchDigests(),
  "deep-bodies": () => benchDeepBodies(),
  rollups: () => benchRollups(),
  isolation: () => benchIsolation(),
  coldread: () => benchColdRead(),
  retention: () => benchRetention(),
  flood: () => benchFlood(),
  idle: () => benchIdle(),
  scanner: () => benchScanner(),
  portfolio: () => benchPortfolio(),
  upstream: async () => {
    const result = await measureDemoUpstreamLargeResponse({ scale: 35 });
    console.log(`\nDemo upstream, 365-day products response at --scale ${result.scale}`);
    console.log(
      `  ${result.rows.toLocaleString("en-US")} rows, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ${(result.wallMs / 1000).toFixed(2)} s; peak RSS ${result.peakRssMb} MB`,
    );
  },
};

async function main() {
  const selected = process.argv.slice(2).filter((name) => !name.startsWith("-"));
  const names = selected.length > 0 ? selected : Object.keys(benches);
  for (const name of names) {
    const bench = benches[name];
    if (!bench) {
      console.error(`Unknown benchmark "${name}". Known: ${Object.keys(benches).join(", ")}`);
      process.exit(2);
    }
    await bench();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
