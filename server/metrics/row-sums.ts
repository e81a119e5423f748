/**
 * What a read of product rows does with them once parsed: checks each row's shape and sums it,
 * either into one ProductMetricsAggregator ("sums": a view read without the rollups) or into the
 * day segments of the day rollups ("days": a new DayCells each time the rows' date changes).
 * The same code runs on a worker thread (rows-worker.ts) and, with ROW_WORKERS=off, on the event loop.
 */
import { DayCells } from "../rollups/cells";
import { isMetricRow, ProductMetricsAggregator, type AggregatorState, type MetricRow } from "./aggregate";

export type RowSumsMode = "sums" | "days";

/** A row that is not a product metric row (contract 2.4). */
export class RowShapeError extends Error {}

/** A day segment as plain data: what crosses from a worker thread (structured clone). */
export type PlainDay = Pick<DayCells, "day" | "rows" | "currency" | "cells">;

export class RowSums {
  rows = 0;
  private readonly aggregator = new ProductMetricsAggregator();
  private current: DayCells | undefined;
  private closed: DayCells[] = [];

  constructor(private readonly mode: RowSumsMode) {}

  /** Checks and sums parsed elements, in order; throws RowShapeError at the first that is not a row. */
  take(elements: unknown[]): void {
    for (const element of elements) if (!isMetricRow(element)) throw new RowShapeError("a row in an unexpected shape");
    const rows = elements as MetricRow[];
    this.rows += rows.length;
    if (this.mode === "sums") {
      for (const row of rows) this.aggregator.add(row);
      return;
    }
    for (const row of rows) {
      if (row.date !== this.current?.day) {
        if (this.current) this.closed.push(this.current);
        this.current = new DayCells(row.date);
      }
      this.current.add(row);
    }
  }

  /** The day segments completed since the last call (a segment completes when the next begins). */
  takeClosedDays(): DayCells[] {
    const closed = this.closed;
    this.closed = [];
    return closed;
  }

  /** At the end of the body: the last segment, and the aggregator's sums. */
  finish(): { days: DayCells[]; sums: AggregatorState | undefined } {
    if (this.current) this.closed.push(this.current);
    this.current = undefined;
    return { days: this.takeClosedDays(), sums: this.mode === "sums" ? this.aggregator.state() : undefined };
  }
}
