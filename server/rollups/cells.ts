import type { MetricRow } from "@/server/metrics/aggregate";

/**
 * The rollup grain: one store-local day's rows summed per channel and product. Everything a
 * view without row-level filters shows (totals, the day × channel series, channels, products)
 * is a sum over cells; the first row's name, SKU and currency are kept with their place in
 * the day's rows, so a view picks the same ones a full read would.
 */
export interface Cell {
  day: string;
  channel: string;
  productId: string;
  name: string | null;
  sku: string | null;
  firstRow: number;
  currency: string | null;
  currencyRow: number | null;
  rows: number;
  orders: number;
  units: number;
  revenue: number;
}

/** Sums one day's rows, in the order they arrived, into cells. */
export class DayCells {
  rows = 0;
  currency: string | null = null;
  /** The cells by channel, then product: found without making a key string per row. */
  private readonly byChannel = new Map<string, Map<string, Cell>>();

  constructor(
    readonly day: string,
    readonly cells = new Map<string, Cell>(),
  ) {
    for (const cell of cells.values()) this.index(cell);
  }

  private index(cell: Cell): void {
    let products = this.byChannel.get(cell.channel);
    if (!products) this.byChannel.set(cell.channel, (products = new Map()));
    products.set(cell.productId, cell);
  }

  add(row: MetricRow): void {
    const index = this.rows++;
    if (row.currency && !this.currency) this.currency = row.currency;
    let cell = this.byChannel.get(row.channel)?.get(row.product_id);
    if (!cell) {
      cell = {
        day: this.day,
        channel: row.channel,
        productId: row.product_id,
        name: row.product_name ?? null,
        sku: row.product_sku ?? null,
        firstRow: index,
        currency: null,
        currencyRow: null,
        rows: 0,
        orders: 0,
        units: 0,
        revenue: 0,
      };
      this.cells.set(`${row.channel}\u0000${row.product_id}`, cell);
      this.index(cell);
    }
    if (row.currency && cell.currency === null) {
      cell.currency = row.currency;
      cell.currencyRow = index;
    }
    cell.rows++;
    cell.orders += row.orders;
    cell.units += row.units;
    cell.revenue += row.revenue;
  }
}

/**
 * Bytes counted per cell on top of its text: its numbers in the day's arrays (rollup_day_cells).
 * The arrays are compressed, so this errs high: at demo scale 3, 63,365 cells took 2.9 MiB of
 * tables and indexes (rows of days included), counted as 5.1 MiB.
 */
const CELL_OVERHEAD_BYTES = 16;
/** A day's two rows (its totals and its arrays), their index entries and the arrays' headers. */
const DAY_OVERHEAD_BYTES = 400;
/** Bytes counted per row of the day's channel sums (rollup_day_channels) on top of its channel's text. */
const DAY_CHANNEL_OVERHEAD_BYTES = 110;

const cellBytes = (cell: Cell) =>
  CELL_OVERHEAD_BYTES + cell.channel.length + cell.productId.length + (cell.name?.length ?? 0) + (cell.sku?.length ?? 0);

/**
 * A day read whole, as it is written: its totals, its estimated size, and its cells as PostgreSQL
 * array literals, one per array of rollup_day_cells from `channel` to `revenue`, UTF-8 encoded one
 * after another in `columns` (`columnEnds`: where each ends). Made where the day was summed (a
 * worker thread) and moved to the event loop without a copy, so the event loop neither keeps a
 * large store's cells as objects or strings nor encodes them: the bytes go to the database as they
 * are (repository.ts). The cells themselves are kept only for a day held before, whose
 * restatement names the channels and products that moved.
 */
export interface DayWrite {
  day: string;
  rows: number;
  currency: string | null;
  totals: { orders: number; units: number; revenue: number };
  bytes: number;
  cellCount: number;
  columns: Uint8Array;
  columnEnds: number[];
  cells?: Map<string, Cell>;
}

/** The array literal of one column of a day's write (a view of its bytes). */
export function columnLiteral(day: DayWrite, column: number): Uint8Array {
  return day.columns.subarray(column === 0 ? 0 : day.columnEnds[column - 1], day.columnEnds[column]);
}

const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const utf8 = new TextEncoder();

/** Column bodies as array literals in one buffer of their own (never a pooled one: it is transferred). */
function encodeColumns(bodies: string[]): { columns: Uint8Array; columnEnds: number[] } {
  let size = 0;
  for (const body of bodies) size += Buffer.byteLength(body, "utf8") + 2;
  const columns = new Uint8Array(size);
  const columnEnds: number[] = [];
  let at = 0;
  for (const body of bodies) {
    columns[at++] = BRACE_OPEN;
    at += utf8.encodeInto(body, columns.subarray(at)).written;
    columns[at++] = BRACE_CLOSE;
    columnEnds.push(at);
  }
  return { columns, columnEnds };
}

const NEEDS_ESCAPE = /["\\]/;

/**
 * Strings as array literal elements, quoted (and escaped when they hold a quote or backslash) as
 * node-postgres writes an array parameter's elements: a day's cells repeat the same channels,
 * products, names and SKUs as every other day's. Emptied when it grows past its bound.
 */
const quoted = new Map<string, string>();
const QUOTED_MAX = 50_000;

function quote(value: string): string {
  let text = quoted.get(value);
  if (text === undefined) {
    text = NEEDS_ESCAPE.test(value) ? `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : `"${value}"`;
    if (quoted.size >= QUOTED_MAX) quoted.clear();
    quoted.set(value, text);
  }
  return text;
}

const orNull = (value: string | null) => (value === null ? "NULL" : quote(value));

/**
 * The columns' literal bodies: strings quoted (quote), numbers as JavaScript writes them
 * (integers, or the shortest text that reads back as the same double, exponent included, which
 * float8 reads back the same), NULL unquoted; each column's elements joined once.
 */
export function dayWrite(day: DayCells, keepCells: boolean): DayWrite {
  const totals = { orders: 0, units: 0, revenue: 0 };
  let bytes = DAY_OVERHEAD_BYTES;
  const seenChannels = new Set<string>();
  const [channels, productIds, names, skus, firstRows, currencies, currencyRows, rows, orders, units, revenues] = Array.from(
    { length: 11 },
    () => new Array<string | number>(),
  ) as (string | number)[][] & { length: 11 };
  for (const cell of day.cells.values()) {
    if (!seenChannels.has(cell.channel)) {
      seenChannels.add(cell.channel);
      bytes += DAY_CHANNEL_OVERHEAD_BYTES + cell.channel.length;
    }
    totals.orders += cell.orders;
    totals.units += cell.units;
    totals.revenue += cell.revenue;
    bytes += cellBytes(cell);
    channels!.push(quote(cell.channel));
    productIds!.push(quote(cell.productId));
    names!.push(orNull(cell.name));
    skus!.push(orNull(cell.sku));
    firstRows!.push(cell.firstRow);
    currencies!.push(orNull(cell.currency));
    currencyRows!.push(cell.currencyRow ?? "NULL");
    rows!.push(cell.rows);
    orders!.push(cell.orders);
    units!.push(cell.units);
    revenues!.push(cell.revenue);
  }
  const columns = [channels, productIds, names, skus, firstRows, currencies, currencyRows, rows, orders, units, revenues];
  return {
    day: day.day,
    rows: day.rows,
    currency: day.currency,
    totals,
    bytes,
    cellCount: day.cells.size,
    // join writes a number as String(number) does.
    ...encodeColumns(columns.map((column) => column!.join(","))),
    ...(keepCells ? { cells: day.cells } : {}),
  };
}

/** A day a view read: its rows and currency, and its cells when kept; nothing to write. */
export function dayRead(day: DayCells, keepCells: boolean): DayWrite {
  return {
    day: day.day,
    rows: day.rows,
    currency: day.currency,
    totals: { orders: 0, units: 0, revenue: 0 },
    bytes: 0,
    cellCount: 0,
    // A buffer of its own: each day's is transferred from the worker.
    columns: new Uint8Array(0),
    columnEnds: [],
    ...(keepCells ? { cells: day.cells } : {}),
  };
}
