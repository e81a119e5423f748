/**
 * The worker thread that reads (row-scanner.ts) and sums (row-sums.ts) a product-rows body, so the event loop
 * that answers every request only moves bytes in and sums out. It receives the body's bytes in
 * transferred chunks and answers each chunk once it is summed (the sender's flow control), with
 * the day segments it completed. It never sees a key or a request: bytes in, sums out.
 * Each read begins with a `start` message; a worker reads one body at a time and is kept for the
 * next after a clean end. Started by rows-off-thread.ts; bundled into the release by scripts/build.mjs.
 */
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { MalformedJsonError } from "./json-array-stream";
import { RowScanner } from "./row-scanner";
import { RowShapeError, RowSums } from "./row-sums";
import type { WorkerReply, WorkerRequest } from "./rows-protocol";

/**
 * The worker's thread yields the CPU to the event loop's, which answers every other request: on
 * Linux a thread may lower its own priority (raise its nice value) without any privilege. A
 * thread id is not in Node's API; /proc/thread-self names it. Elsewhere it runs as the process does.
 * Relative to the process's own (started under `nice`, it stays below the event loop all the same).
 */
const WORKER_NICE_STEP = 10;
const LOWEST = 19;
try {
  const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, Math.min(LOWEST, getPriority(threadId) + WORKER_NICE_STEP));
} catch {
  // No /proc (not Linux), or the priority cannot be changed: the worker keeps the process's.
}

const port = parentPort!;
let scanner = new RowScanner();
let sums = new RowSums({ mode: "sums" });

/** Each day's literals are moved, not copied: the worker never reads them again. */
function reply(message: WorkerReply) {
  port.postMessage(message, "days" in message ? message.days.map((day) => day.columns.buffer as ArrayBuffer) : []);
}

port.on("message", (message: WorkerRequest) => {
  try {
    if (message.type === "start") {
      scanner = new RowScanner();
      sums = new RowSums(message.options);
      return;
    }
    if (message.type === "chunk") {
      scanner.push(message.bytes, sums.add);
      reply({ type: "summed", rows: sums.rows, lastDay: sums.lastDay, days: sums.takeClosedDays() });
      return;
    }
    scanner.end();
    scanner.checkComplete();
    reply({ type: "done", rows: sums.rows, lastDay: sums.lastDay, ...sums.finish() });
  } catch (error) {
    const kind = error instanceof RowShapeError ? "shape" : error instanceof MalformedJsonError ? "malformed" : "internal";
    reply({ type: "failed", kind, message: error instanceof Error ? error.message : String(error) });
  }
});
