/** The messages between rows-off-thread.ts (the event loop) and rows-worker.ts (the worker thread). */
import type { DayWrite } from "../rollups/cells";
import type { SummaryState } from "../rollups/range-summary";
import type { AggregatorState } from "./aggregate";
import type { RowSumsOptions } from "./row-sums";

/** `start` begins a read (a worker reads one body at a time, and may read several one after another). */
export type WorkerRequest = { type: "start"; options: RowSumsOptions } | { type: "chunk"; bytes: Uint8Array } | { type: "end" };

export type WorkerReply =
  | { type: "summed"; rows: number; lastDay?: string; days: DayWrite[] }
  | { type: "done"; rows: number; lastDay?: string; days: DayWrite[]; sums?: AggregatorState; summary?: SummaryState }
  | { type: "failed"; kind: "shape" | "malformed" | "internal"; message: string };
