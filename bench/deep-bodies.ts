/**
 * Deep JSON against a production dashboard: the time of a body nested 32,000 levels deep (64 KB,
 * refused by its depth) next to a flat body of the same size (parsed, refused by its schema) and
 * a request without a body, on the same route and session in the same run; then liveness while
 * five deep sign-ins at a time arrive without a session, against liveness idle.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

const ROUNDS = 60;
const BYTES = 64 * 1024;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]!;

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  await (await run()).arrayBuffer();
  return performance.now() - started;
}

export async function benchDeepBodies(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "dash-deep-bench-"));
  const upstream = await startDemoUpstreamProcess();
  const metricsPort = await freePort();
  const dashboard = await startDashboardProcess(upstream.baseUrl, await freePort(), {
    DATA_DIR: dataDir,
    METRICS_PORT: String(metricsPort),
  });
  /** The event loop's longest delay (ms) since the last scrape: prom-client resets its histogram at each. */
  const loopMax = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]) * 1000;
  };
  try {
    const { origin } = dashboard;
    const cookie = await signInCookie(origin);
    const post = (path: string, body: string, withCookie = true) =>
      fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...(withCookie ? { cookie } : {}) },
        body,
      });
    const notes = `/api/stores/${US_STORE}/notes`;
    const deep = "[".repeat(BYTES / 2 - 100) + "]".repeat(BYTES / 2 - 100);
    const flat = `[${Array.from({ length: BYTES / 2 - 100 }, () => "0").join(",")}]`;
    const kinds: Record<string, () => Promise<Response>> = {
      "GET /api/session (no body, baseline)": () => fetch(`${origin}/api/session`, { headers: { cookie } }),
      "POST notes, flat 64 KB (schema refuses)": () => post(notes, flat),
      "POST notes, 64 KB nested (depth refuses)": () => post(notes, deep),
    };
    const times: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, run] of Object.entries(kinds)) (times[name] ??= []).push(await timed(run));
    const baseline = median(times["GET /api/session (no body, baseline)"]!);
    console.log(`\nDeep JSON bodies (${ROUNDS} rounds, median round trip, ratio to the request without a body)`);
    for (const [name, values] of Object.entries(times))
      console.log(`  ${name.padEnd(44)} ${median(values).toFixed(1).padStart(6)} ms  ${(median(values) / baseline).toFixed(2)} x`);

    const live = () => timed(() => fetch(`${origin}/api/health/live`));
    const idle: number[] = [];
    await loopMax();
    for (let index = 0; index < ROUNDS; index++) idle.push(await live());
    const idleMax = await loopMax();
    const signInDeep = deep.slice(0, 16_000 / 2) + deep.slice(-16_000 / 2);
    /** Liveness while `send` runs five at a time, and the event loop's longest delay meanwhile. */
    const under = async (send: () => Promise<Response>) => {
      let stop = false;
      const flood = Array.from({ length: 5 }, async () => {
        while (!stop) await (await send()).arrayBuffer();
      });
      await loopMax();
      const times: number[] = [];
      for (let index = 0; index < ROUNDS; index++) times.push(await live());
      const longest = await loopMax();
      stop = true;
      await Promise.all(flood);
      return { times, longest };
    };
    const plain = await under(() => fetch(`${origin}/api/health/live`));
    const deepSignIns = await under(() => post("/api/session", signInDeep, false));
    const line = (label: string, times: number[], longest: number) =>
      console.log(
        `    ${label.padEnd(44)} p50 ${median(times).toFixed(1)} ms, p99 ${p99(times).toFixed(1)} ms; longest event-loop delay ${longest.toFixed(1)} ms`,
      );
    console.log("  Liveness while five requests without a session are always in flight:");
    line("idle", idle, idleMax);
    line("5 liveness probes in flight (baseline)", plain.times, plain.longest);
    line("5 deep sign-ins in flight", deepSignIns.times, deepSignIns.longest);
  } finally {
    await dashboard.stop();
    await upstream.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
