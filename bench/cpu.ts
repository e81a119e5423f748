/**
 * CPU time (user and system) spent by the processes of a benchmark, from Linux's /proc: the
 * dashboard server thread by thread, the demo upstream, and PostgreSQL's processes. Elsewhere
 * every figure is 0.
 */
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/** Linux counts CPU time in clock ticks of USER_HZ, 100 a second. */
const TICK_MS = 10;

/** utime + stime of a /proc stat file, in ms (0 when it is gone). */
function statCpuMs(path: string): number {
  try {
    const stat = readFileSync(path, "utf8");
    // After the command in parentheses (which may hold spaces): state, then fields 4 to 13, then utime and stime.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

function threadsCpuMs(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) threads.set(Number(tid), statCpuMs(`/proc/${pid}/task/${tid}/stat`));
  } catch {
    // Not Linux, or gone.
  }
  return threads;
}

/** Every process whose command name is `name` (PostgreSQL's server and backends are all `postgres`). */
function namedProcessesCpuMs(name: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) total += statCpuMs(`/proc/${entry}/stat`);
      } catch {
        // Gone meanwhile.
      }
    }
  } catch {
    // Not Linux.
  }
  return total;
}

interface CpuSnapshot {
  at: number;
  server: Map<number, number>;
  upstream: number;
  postgres: number;
}

export function cpuSnapshot(serverPid: number, upstreamPid: number): CpuSnapshot {
  return {
    at: performance.now(),
    server: threadsCpuMs(serverPid),
    upstream: statCpuMs(`/proc/${upstreamPid}/stat`),
    postgres: namedProcessesCpuMs("postgres"),
  };
}

export interface CpuSpent {
  /** The server's main thread (its event loop). */
  eventLoop: number;
  /** The server's busiest other thread: the rows worker, when a read's rows are summed off the event loop. */
  busiestThread: number;
  /** The server's other threads together (V8's and libuv's helpers, and any other worker). */
  otherThreads: number;
  upstream: number;
  postgres: number;
  wallMs: number;
  cores: number;
}

export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot, serverPid: number): CpuSpent {
  const spent = [...after.server].map(([tid, ms]) => [tid, ms - (before.server.get(tid) ?? 0)] as const);
  const others = spent.filter(([tid]) => tid !== serverPid).map(([, ms]) => ms);
  const busiestThread = Math.max(0, ...others);
  return {
    eventLoop: spent.find(([tid]) => tid === serverPid)?.[1] ?? 0,
    busiestThread,
    otherThreads: others.reduce((sum, ms) => sum + ms, 0) - busiestThread,
    upstream: after.upstream - before.upstream,
    postgres: after.postgres - before.postgres,
    wallMs: after.at - before.at,
    cores: availableParallelism(),
  };
}

export function describeCpu(cpu: CpuSpent): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const total = cpu.eventLoop + cpu.busiestThread + cpu.otherThreads + cpu.upstream + cpu.postgres;
  return (
    `CPU: event loop ${s(cpu.eventLoop)}, busiest other thread ${s(cpu.busiestThread)}, the server's other threads ${s(cpu.otherThreads)}, ` +
    `demo upstream ${s(cpu.upstream)}, PostgreSQL ${s(cpu.postgres)}: ${s(total)} in ${s(cpu.wallMs)} on ${cpu.cores} cores`
  );
}
