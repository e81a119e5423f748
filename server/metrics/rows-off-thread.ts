import "server-only";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { logger } from "@/server/observability/log";
import { processSingleton } from "@/server/runtime/singleton";
import type { DayWrite } from "@/server/rollups/cells";
import type { SummaryState } from "@/server/rollups/range-summary";
import type { AggregatorState } from "./aggregate";
import { MalformedJsonError } from "./json-array-stream";
import { RowScanner } from "./row-scanner";
import { RowShapeError, RowSums, type RowSumsOptions } from "./row-sums";
import type { WorkerReply, WorkerRequest } from "./rows-protocol";

/** What a body has given so far: rows read, the day segments completed, and at the end the sums. */
export interface Summed {
  rows: number;
  /** The date of the last row read so far. */
  lastDay?: string;
  days: DayWrite[];
  sums?: AggregatorState;
  summary?: SummaryState;
}

/** Bytes per message to the worker: a few milliseconds of parsing each. */
const CHUNK_BYTES = 256 * 1024;
/** Chunks sent and not yet answered and taken: bounds the bytes waiting between the two threads. */
const IN_FLIGHT = 4;

/**
 * The worker's program: in a release, the bundle scripts/build.mjs puts next to the server
 * (the server runs from the release's folder); from the sources (development, tests,
 * benchmarks), the TypeScript module, loaded through tsx. Undefined when neither is there.
 * Started from a line of code rather than a path, which the app's bundler would try to resolve
 * at build time.
 */
function startWorker(): Worker | undefined {
  // The worker holds one chunk, one day's cells and the sums: a small heap, collected often, keeps
  // the process's peak memory near the event loop's own (V8's defaults let it grow by 150 MB).
  const resourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };
  const start = (code: string) => {
    const worker = new Worker(code, { eval: true, resourceLimits });
    worker.once("exit", () => {
      const at = idle.indexOf(worker);
      if (at !== -1) idle.splice(at, 1);
    });
    return worker;
  };
  const built = join(process.cwd(), "rows-worker.mjs");
  if (existsSync(built)) return start(`import(${JSON.stringify(pathToFileURL(built).href)})`);
  const source = join(process.cwd(), "server/metrics/rows-worker.ts");
  if (!existsSync(source)) return undefined;
  const url = JSON.stringify(pathToFileURL(source).href);
  return start(`import("tsx/esm/api").then(({ tsImport }) => tsImport(${url}, ${url}))`);
}

/**
 * Workers that finished a read cleanly wait here for the next (starting one costs tens of
 * milliseconds, a second through tsx). One list per process: the server's own program starts
 * one (prestartRowWorker) that the route handlers' copy of this module takes.
 */
const idle = processSingleton("rows-workers", (): Worker[] => []);
const IDLE_WORKERS = 2;

function takeWorker(options: RowSumsOptions): Worker | undefined {
  const worker = idle.pop() ?? startWorker();
  worker?.ref();
  worker?.postMessage({ type: "start", options } satisfies WorkerRequest);
  return worker;
}

/** Keeps a worker for the next read (not keeping the process alive), or stops it past the few kept. */
function giveBack(worker: Worker) {
  if (idle.length >= IDLE_WORKERS) return void worker.terminate();
  worker.unref();
  idle.push(worker);
}

/** One buffer of its own (transferred, so never a view into a pooled one). */
function joined(chunks: Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function replyError(reply: Extract<WorkerReply, { type: "failed" }>): Error {
  if (reply.kind === "shape") return new RowShapeError(reply.message);
  if (reply.kind === "malformed") return new MalformedJsonError(reply.message);
  return new Error(`The rows worker failed: ${reply.message}`);
}

async function* offThread(worker: Worker, body: ReadableStream<Uint8Array>): AsyncGenerator<Summed> {
  const replies: WorkerReply[] = [];
  let failure: unknown;
  let finished = false;
  let wake: (() => void) | undefined;
  let room: (() => void) | undefined;
  let unanswered = 0;
  const signal = () => {
    wake?.();
    room?.();
  };
  const onMessage = (reply: WorkerReply) => (replies.push(reply), signal());
  const onError = (error: unknown) => ((failure ??= error), signal());
  const onExit = () => ((failure ??= new Error("The rows worker stopped before the end of the body.")), signal());
  worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  let clean = false;
  const send = (message: WorkerRequest) =>
    worker.postMessage(message, message.type === "chunk" ? [message.bytes.buffer as ArrayBuffer] : []);

  const reader = body.getReader();
  const pump = async () => {
    let pending: Uint8Array[] = [];
    let size = 0;
    const flush = async () => {
      const bytes = joined(pending, size);
      pending = [];
      size = 0;
      while (unanswered >= IN_FLIGHT && failure === undefined && !finished) await new Promise<void>((go) => (room = go));
      if (failure !== undefined || finished) throw new Error("The read stopped.");
      unanswered++;
      send({ type: "chunk", bytes });
    };
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending.push(value);
      size += value.byteLength;
      if (size >= CHUNK_BYTES) await flush();
    }
    if (size > 0) await flush();
    send({ type: "end" });
  };
  pump().catch((error: unknown) => ((failure ??= error), signal()));

  try {
    for (;;) {
      while (replies.length === 0 && failure === undefined) await new Promise<void>((go) => (wake = go));
      const reply = replies.shift();
      if (!reply) throw failure;
      if (reply.type === "failed") throw replyError(reply);
      if (reply.type === "done") {
        finished = true;
        clean = true;
        yield { rows: reply.rows, lastDay: reply.lastDay, days: reply.days, sums: reply.sums, summary: reply.summary };
        return;
      }
      unanswered--;
      room?.();
      yield { rows: reply.rows, lastDay: reply.lastDay, days: reply.days };
    }
  } finally {
    finished = true;
    room?.();
    await reader.cancel().catch(() => undefined);
    worker.off("message", onMessage).off("error", onError).off("exit", onExit);
    // A worker that failed, or whose read was given up midway, holds state of its own: it is stopped.
    if (clean) giveBack(worker);
    else await worker.terminate();
  }
}

/**
 * Starts a worker and has it read an empty body, so that the first read after a start does not
 * wait for the worker's program to load. Resolves once it is ready and waiting (false when there
 * is no worker program, or it failed: reads then start their own, as before).
 */
export async function prestartRowWorker(): Promise<boolean> {
  const worker = startWorker();
  if (!worker) return false;
  const ready = new Promise<boolean>((resolve) => {
    worker.on("message", (reply: WorkerReply) => reply.type !== "summed" && resolve(reply.type === "done"));
    worker.once("error", () => resolve(false)).once("exit", () => resolve(false));
  });
  worker.postMessage({ type: "start", options: { mode: "sums" } } satisfies WorkerRequest);
  worker.postMessage({ type: "chunk", bytes: new TextEncoder().encode("[]") } satisfies WorkerRequest);
  worker.postMessage({ type: "end" } satisfies WorkerRequest);
  const ok = await ready;
  worker.removeAllListeners("message").removeAllListeners("error");
  if (ok) giveBack(worker);
  else await worker.terminate();
  return ok;
}

/** The same work on the event loop (ROW_WORKERS=off, or no worker program to start). */
async function* inThread(options: RowSumsOptions, body: ReadableStream<Uint8Array>): AsyncGenerator<Summed> {
  const sums = new RowSums(options);
  const scanner = new RowScanner();
  for await (const chunk of body) {
    scanner.push(chunk, sums.add);
    yield { rows: sums.rows, lastDay: sums.lastDay, days: sums.takeClosedDays() };
  }
  scanner.end();
  scanner.checkComplete();
  yield { rows: sums.rows, lastDay: sums.lastDay, ...sums.finish() };
}

/**
 * Parses and sums a product-rows body: on a worker thread when `offThread` (and its program is
 * there), otherwise on the event loop. Throws MalformedJsonError or RowShapeError for a bad
 * body, and the body's own error when it breaks off.
 */
export function sumRowBody(body: ReadableStream<Uint8Array>, options: RowSumsOptions, offThreadWanted: boolean): AsyncGenerator<Summed> {
  const worker = offThreadWanted ? takeWorker(options) : undefined;
  if (offThreadWanted && !worker && !warned) {
    warned = true;
    logger.warn({ cwd: process.cwd() }, "No rows-worker.mjs in the release: product rows are summed on the event loop");
  }
  return worker ? offThread(worker, body) : inThread(options, body);
}

let warned = false;
