/** The messages between rows-off-thread.ts (the event loop) and rows-worker.ts (the worker thread). */
import type { AggregatorState } from "./aggregate";
import type { PlainDay } from "./row-sums";

export type WorkerRequest = { type: "chunk"; bytes: Uint8Array } | { type: "end" };

export type WorkerReply =
  | { type: "summed"; rows: number; days: PlainDay[] }
  | { type: "done"; rows: number; days: PlainDay[]; sums: AggregatorState | undefined }
  | { type: "failed"; kind: "shape" | "malformed" | "internal"; message: string };
