/**
 * Streams product rows as one JSON array: `[`, rows day by day in ~64 KB chunks that wait
 * for 'drain', then `]`. Memory stays flat whatever the row count, and generation stops as
 * soon as the client goes away.
 */

import type { ServerResponse } from "node:http";
import { setImmediate as nextTick } from "node:timers/promises";
import { roundMoney, type StoreCatalog } from "./catalog";
import type { RequestContext } from "./context";
import { JSON_CONTENT_TYPE } from "./errors";
import { dayString } from "./fixtures";
import { generateDay, lineMatches, rowPrefix, serializeLine, type RowFilter } from "./rows";

const CHUNK_BYTES = 64 * 1024;
/** Room past CHUNK_BYTES so the row that crosses the mark still fits (rows are < 1 KB). */
const SLACK_BYTES = 32 * 1024;
/** Lines generated without writing anything before the loop yields to other requests. */
const LINES_PER_YIELD = 20_000;

/**
 * Rows are UTF-8-encoded straight into a Buffer: cheaper than growing a 64 KB string and
 * having the socket encode it again.
 */
class ChunkBuilder {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES + SLACK_BYTES);
  used = 0;

  /** False when the text might not fit: take() first. */
  append(text: string, comma: boolean): boolean {
    if (this.used + 1 + text.length * 3 > this.chunk.length) return false;
    if (comma) this.chunk[this.used++] = 0x2c;
    this.used += this.chunk.write(text, this.used, "utf8");
    return true;
  }

  take(): Buffer {
    const out = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES + SLACK_BYTES);
    this.used = 0;
    return out;
  }
}

function waitForDrainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes part of the body, waits until it is flushed, then cuts the connection. */
function writeAndCut(res: ServerResponse, part: Buffer): Promise<void> {
  return new Promise((resolve) => {
    res.write(part, () => {
      res.destroy();
      resolve();
    });
  });
}

export async function streamRows(
  ctx: RequestContext,
  catalog: StoreCatalog,
  fromDay: number,
  toDay: number,
  filter: RowFilter,
): Promise<void> {
  const { res, runtime } = ctx;
  const { store } = catalog;
  res.writeHead(200, { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store" });
  let closed = false;
  const onClose = () => {
    closed = true;
  };
  res.on("close", onClose);
  runtime.openStreams += 1;
  try {
    const builder = new ChunkBuilder();
    builder.append("[", false);
    let first = true;
    let sinceYield = 0;
    // Sends what is buffered; false when the stream must stop (client gone, or truncated).
    const flush = async (): Promise<boolean> => {
      if (ctx.truncate) {
        await writeAndCut(res, builder.take());
        return false;
      }
      sinceYield = 0;
      if (!res.write(builder.take())) await waitForDrainOrClose(res);
      return !closed;
    };
    for (let day = fromDay; day <= toDay && !closed; day++) {
      const prefix = rowPrefix(store, dayString(day));
      const lines = generateDay(catalog, day);
      const drop = runtime.anomalies.dropFor(store.url, day);
      const factor = runtime.restatements.factorFor(store.url, day);
      sinceYield += lines.length;
      for (const [index, line] of lines.entries()) {
        if (drop?.(line.conversion.channel, index) || !lineMatches(line, filter)) continue;
        const restated = factor === null ? line : { ...line, revenue: roundMoney(line.revenue * factor, store.currencyDecimals) };
        const row = serializeLine(prefix, restated, filter.source, store.currencyDecimals);
        if (!builder.append(row, !first)) {
          if (!(await flush())) return;
          if (!builder.append(row, !first)) throw new Error("a row is larger than a stream chunk");
        }
        first = false;
        if (builder.used >= CHUNK_BYTES && !(await flush())) return;
      }
      if (sinceYield >= LINES_PER_YIELD) {
        sinceYield = 0;
        await nextTick();
      }
    }
    if (closed) return;
    builder.append("]", false);
    const rest = builder.take();
    if (ctx.truncate) return await writeAndCut(res, rest.subarray(0, Math.max(1, Math.floor(rest.length / 2))));
    res.end(rest);
  } finally {
    runtime.openStreams -= 1;
    res.off("close", onClose);
  }
}
