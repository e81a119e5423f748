/**
 * A paced load: `connections` keep-alive connections, each sending one request every
 * `intervalMs`, for `durationMs`. Below saturation, latency is service time rather than
 * queueing, and performance.now() gives it to the microsecond (autocannon rounds to 1 ms).
 */
import { Agent, request } from "node:http";

export interface PacedResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
}

/** The latency below which `fraction` of the sorted samples fall (NaN when there are none). */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function once(agent: Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

export async function pacedLoad(
  target: string,
  headers: Record<string, string>,
  options: { connections: number; intervalMs: number; durationMs: number },
): Promise<PacedResult> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.durationMs;
  const worker = async (offset: number) => {
    // Spread the connections over the interval so they do not fire together.
    await new Promise((wait) => setTimeout(wait, offset));
    while (performance.now() < deadline) {
      const next = performance.now() + options.intervalMs;
      try {
        latencies.push(await once(agent, url, headers));
      } catch {
        errors++;
      }
      await new Promise((wait) => setTimeout(wait, Math.max(0, next - performance.now())));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, index) => worker((index * options.intervalMs) / options.connections)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}
