/**
 * What a read of product rows does with them once read and checked (row-scanner.ts): sums each,
 * either into one ProductMetricsAggregator ("sums": a view read without the rollups) or into the
 * day rollups ("days": a new day segment each time the rows' date changes, summed into the view's
 * RangeSummary and made ready to write). The same code runs on a worker thread (rows-worker.ts)
 * and, with ROW_WORKERS=off, on the event loop.
 */
import { DayCells, dayRead, dayWrite, type DayWrite } from "../rollups/cells";
import { cellMatches, RangeSummary, type CellFilter, type SummaryState } from "../rollups/range-summary";
import { ProductMetricsAggregator, type AggregatorState, type MetricRow } from "./aggregate";

export type RowSumsOptions =
  | { mode: "sums" }
  | {
      mode: "days";
      /** The view's channel and product filter: which cells its summary takes. */
      filter: CellFilter;
      /** The summary to carry on (the range's earlier runs). */
      summary: SummaryState;
      /** Days whose cells are kept with their write: held before, a restatement may name what moved. */
      keepCells: string[];
      /** Whether each day comes ready to write (a fill); a view only sums. */
      write: boolean;
    };

/** A row that is not a product metric row (contract 2.4). */
export class RowShapeError extends Error {}

export class RowSums {
  rows = 0;
  /** The date of the last row read: how far a body sent day by day has come. */
  lastDay: string | undefined;
  private readonly aggregator = new ProductMetricsAggregator();
  private readonly summary = new RangeSummary();
  private readonly keepCells: ReadonlySet<string>;
  private current: DayCells | undefined;
  private closed: DayWrite[] = [];

  constructor(private readonly options: RowSumsOptions) {
    this.keepCells = new Set(options.mode === "days" ? options.keepCells : []);
    if (options.mode === "days") this.summary.load(options.summary);
  }

  /** Sums one checked row. Keeps its strings and numbers, never the row object (a RowScanner reuses it). */
  readonly add = (row: MetricRow): void => {
    this.rows++;
    this.lastDay = row.date;
    if (this.options.mode === "sums") return this.aggregator.add(row);
    if (row.date !== this.current?.day) {
      if (this.current) this.close(this.current);
      this.current = new DayCells(row.date);
    }
    this.current.add(row);
  };

  private close(day: DayCells) {
    if (this.options.mode !== "days") return;
    for (const cell of day.cells.values()) if (cellMatches(cell, this.options.filter)) this.summary.addCell(cell);
    this.closed.push(this.options.write ? dayWrite(day, this.keepCells.has(day.day)) : dayRead(day, this.keepCells.has(day.day)));
  }

  /** The day segments completed since the last call (a segment completes when the next begins). */
  takeClosedDays(): DayWrite[] {
    const closed = this.closed;
    this.closed = [];
    return closed;
  }

  /** At the end of the body: the last segment, and the sums. */
  finish(): { days: DayWrite[]; sums?: AggregatorState; summary?: SummaryState } {
    if (this.current) this.close(this.current);
    this.current = undefined;
    const days = this.takeClosedDays();
    return this.options.mode === "sums" ? { days, sums: this.aggregator.state() } : { days, summary: this.summary.state() };
  }
}
