/**
 * Large-response measurement of the demo upstream: runs the CLI as a child process (so its
 * memory is measured alone), asks for a year of product rows at a high scale, counts the
 * rows on the fly without parsing the body, and reports throughput and the child's peak RSS.
 *
 *   npx tsx bench/demo-upstream.ts [--scale 35] [--start 2025-01-01] [--end 2025-12-31]
 */

import { readFileSync } from "node:fs";
import { request } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startDemoUpstreamProcess } from "./processes";

export interface LargeResponseOptions {
  scale?: number;
  seed?: number;
  storeUrl?: string;
  apiKey?: string;
  startDate?: string;
  endDate?: string;
  /** How often VmRSS of the child is sampled. */
  sampleIntervalMs?: number;
}

export interface LargeResponseResult {
  scale: number;
  startDate: string;
  endDate: string;
  status: number;
  rows: number;
  bytes: number;
  wallMs: number;
  rowsPerSecond: number;
  /** Max of the kernel's high-water mark (VmHWM) and the sampled VmRSS, in MB. */
  peakRssMb: number;
  vmHwmMb: number;
  sampledPeakRssMb: number;
}

/** Counts top-level objects of a JSON array in a byte stream: only tracks depth and strings. */
export class JsonArrayRowCounter {
  rows = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  push(chunk: Buffer): void {
    let { depth, inString, escaped, rows } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (c === 0x7b && depth === 1) rows++;
        depth++;
      } else if (c === 0x7d || c === 0x5d) depth--;
    }
    Object.assign(this, { depth, inString, escaped, rows });
  }
}

function readStatusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export async function measureDemoUpstreamLargeResponse(options: LargeResponseOptions = {}): Promise<LargeResponseResult> {
  const scale = options.scale ?? 35;
  const startDate = options.startDate ?? "2025-01-01";
  const endDate = options.endDate ?? "2025-12-31";
  const storeUrl = options.storeUrl ?? "northwind-outfitters.myshopify.com";
  const apiKey = options.apiKey ?? "sk_demo_admin_nw_us_5d8e2f41c7a9";
  const upstream = await startDemoUpstreamProcess(["--scale", String(scale), "--seed", String(options.seed ?? 42)]);
  const { baseUrl } = upstream;
  const pid = upstream.child.pid as number;
  let sampledPeakKb = readStatusKb(pid, "VmRSS");
  const sampler = setInterval(() => {
    sampledPeakKb = Math.max(sampledPeakKb, readStatusKb(pid, "VmRSS"));
  }, options.sampleIntervalMs ?? 100);
  try {
    const url = new URL(`${baseUrl}/ad-metrics/${encodeURIComponent(storeUrl)}/products`);
    url.searchParams.set("startDate", startDate);
    url.searchParams.set("endDate", endDate);
    const counter = new JsonArrayRowCounter();
    const started = performance.now();
    const { status, bytes } = await new Promise<{ status: number; bytes: number }>((resolvePromise, reject) => {
      const req = request(url, { headers: { "x-api-key": apiKey } }, (res) => {
        let total = 0;
        res.on("data", (chunk: Buffer) => {
          total += chunk.length;
          counter.push(chunk);
        });
        res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, bytes: total }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
    const wallMs = performance.now() - started;
    const vmHwmKb = readStatusKb(pid, "VmHWM");
    sampledPeakKb = Math.max(sampledPeakKb, readStatusKb(pid, "VmRSS"));
    const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
    return {
      scale,
      startDate,
      endDate,
      status,
      rows: counter.rows,
      bytes,
      wallMs: Math.round(wallMs),
      rowsPerSecond: Math.round(counter.rows / (wallMs / 1000)),
      peakRssMb: mb(Math.max(vmHwmKb, sampledPeakKb)),
      vmHwmMb: mb(vmHwmKb),
      sampledPeakRssMb: mb(sampledPeakKb),
    };
  } finally {
    clearInterval(sampler);
    await upstream.stop();
  }
}

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function main(): Promise<void> {
  const result = await measureDemoUpstreamLargeResponse({
    scale: flag("--scale") ? Number(flag("--scale")) : undefined,
    startDate: flag("--start"),
    endDate: flag("--end"),
  });
  console.log(`demo upstream large response (scale ${result.scale}, ${result.startDate}..${result.endDate}, HTTP ${result.status})`);
  console.log(`  rows          ${result.rows.toLocaleString("en-US")}`);
  console.log(`  bytes         ${result.bytes.toLocaleString("en-US")} (${(result.bytes / 1024 / 1024).toFixed(1)} MiB)`);
  console.log(`  wall time     ${(result.wallMs / 1000).toFixed(2)} s`);
  console.log(`  rows/s        ${result.rowsPerSecond.toLocaleString("en-US")}`);
  console.log(`  peak RSS      ${result.peakRssMb} MB (VmHWM ${result.vmHwmMb} MB, sampled VmRSS ${result.sampledPeakRssMb} MB)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
