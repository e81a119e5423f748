import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { MalformedJsonError } from "./json-array-stream";
import { columnLiteral, type DayWrite } from "@/server/rollups/cells";
import { RangeSummary } from "@/server/rollups/range-summary";
import { RowShapeError, type RowSumsOptions } from "./row-sums";
import { prestartRowWorker, sumRowBody, type Summed } from "./rows-off-thread";

/** Rows over `days` days, several per channel and product a day, with cents that do not add up exactly in binary. */
function rows(days: number, perDay: number) {
  const out = [];
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let d = 0; d < days; d++) {
    const date = new Date(Date.UTC(2025, 0, 1 + d)).toISOString().slice(0, 10);
    for (let i = 0; i < perDay; i++) {
      const product = Math.floor(next() * 40);
      out.push({
        date,
        channel: ["facebook", "google", "email", "direct"][Math.floor(next() * 4)],
        ad_id: null,
        product_id: `p${product}`,
        product_name: next() < 0.05 ? `Renamed ${product}` : `Product ${product}`,
        product_sku: `SKU-${product}`,
        currency: "USD",
        orders: 1 + Math.floor(next() * 3),
        units: 1 + Math.floor(next() * 5),
        revenue: Math.round(next() * 100_000) / 100,
      });
    }
  }
  return out;
}

/** A body in chunks of `size` bytes, cut anywhere (inside strings and numbers too). */
function body(text: string | Uint8Array, size = 7_777, failWith?: Error): ReadableStream<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) {
        if (failWith) controller.error(failWith);
        else controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

const SUMS: RowSumsOptions = { mode: "sums" };
const DAYS = (keepCells: string[] = [], filter = {}): RowSumsOptions => ({
  mode: "days",
  filter,
  summary: new RangeSummary().state(),
  keepCells,
  write: true,
});

async function all(sums: AsyncIterable<Summed>) {
  const days = [];
  let last: Summed | undefined;
  for await (const summed of sums) {
    days.push(...summed.days);
    last = summed;
  }
  return { days, rows: last?.rows, sums: last?.sums, summary: last?.summary };
}

describe("product rows summed on a worker thread", () => {
  const text = JSON.stringify(rows(20, 300));

  it("gives the same sums as the event loop, to the last bit", async () => {
    const offThread = await all(sumRowBody(body(text), SUMS, true));
    const inThread = await all(sumRowBody(body(text), SUMS, false));
    expect(offThread.rows).toBe(6_000);
    expect(offThread.sums).toEqual(inThread.sums);
    expect(offThread.sums?.totals.revenue).toBe(inThread.sums?.totals.revenue);
  });

  it("gives the same days from a body of many chunks", async () => {
    const large = new TextEncoder().encode(JSON.stringify(rows(30, 2_000)));
    const offThread = await all(sumRowBody(body(large, 50_000), DAYS(), true));
    const inThread = await all(sumRowBody(body(large, 50_000), DAYS(), false));
    expect(large.length).toBeGreaterThan(40 * 256 * 1024);
    expect(offThread.rows).toBe(60_000);
    expect(offThread.days).toEqual(inThread.days);
    expect(offThread.summary).toEqual(inThread.summary);
  });

  it("gives the same day segments, in the order the rows came, a day that comes back being a segment of its own", async () => {
    const some = rows(3, 50);
    const shuffled = JSON.stringify([...some.slice(0, 60), ...some.slice(120), ...some.slice(60, 120)]);
    for (const text_ of [text, shuffled]) {
      const options = DAYS(["2025-01-02"], { channel: "google" });
      const offThread = await all(sumRowBody(body(text_, 1_000), options, true));
      const inThread = await all(sumRowBody(body(text_, 1_000), options, false));
      expect(offThread.days).toEqual(inThread.days);
      expect(offThread.summary).toEqual(inThread.summary);
      expect([...offThread.summary!.series.values()].every((point) => point.channel === "google")).toBe(true);
      // Only the days asked for keep their cells (for a restatement's details); every day has its columns.
      expect(offThread.days.filter((day) => day.cells).map((day) => day.day)).toEqual(
        offThread.days.filter((day) => day.day === "2025-01-02").map((day) => day.day),
      );
      const literal = (day: DayWrite, column: number) => new TextDecoder().decode(columnLiteral(day, column));
      expect(
        offThread.days.every((day) => day.columnEnds.length === 11 && literal(day, 1).slice(1, -1).split(",").length === day.cellCount),
      ).toBe(true);
    }
    const segments = (await all(sumRowBody(body(shuffled), DAYS(), true))).days.map((day) => day.day);
    expect(segments).toEqual(["2025-01-01", "2025-01-02", "2025-01-03", "2025-01-02", "2025-01-03"]);
  });

  it("refuses a body that is not a JSON array of rows, or ends early, and passes on a body that breaks off", async () => {
    await expect(all(sumRowBody(body('[{"date": "2025-01-01",'), SUMS, true))).rejects.toBeInstanceOf(MalformedJsonError);
    await expect(all(sumRowBody(body(text.slice(0, -1)), SUMS, true))).rejects.toThrow("the array ended early");
    await expect(all(sumRowBody(body('[{"date": 1}]'), DAYS(), true))).rejects.toBeInstanceOf(RowShapeError);
    await expect(all(sumRowBody(body(text.slice(0, 50_000), 7_777, new Error("cut off")), SUMS, true))).rejects.toThrow("cut off");
  });

  it("has a worker loaded and waiting after a prestart, which the next read takes", async () => {
    const idle = () => (globalThis as { __dashboardSingletons?: Map<string, unknown[]> }).__dashboardSingletons?.get("rows-workers") ?? [];
    for (const worker of idle().splice(0)) await (worker as { terminate: () => Promise<number> }).terminate();
    expect(await prestartRowWorker()).toBe(true);
    expect(idle()).toHaveLength(1);
    const read = sumRowBody(body(text), SUMS, true);
    expect(idle()).toHaveLength(0);
    expect((await all(read)).rows).toBe(6_000);
    expect(idle()).toHaveLength(1);
  });

  it.runIf(process.platform === "linux")("runs the worker at a lower priority than the event loop that answers requests", async () => {
    const niceOf = (task: string) => {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    // Against the test process's own niceness: `nice npm test` starts it at 10, and the worker still yields to it.
    const own = niceOf(String(process.pid));
    expect(await prestartRowWorker()).toBe(true);
    const nices = readdirSync("/proc/self/task").map(niceOf);
    expect(niceOf(String(process.pid))).toBe(own);
    expect(nices).toContain(Math.min(19, own + 10));
  });

  it("keeps the parsing and summing off the event loop", async () => {
    // Encoded beforehand: the measure is of the reading alone.
    const large = new TextEncoder().encode(JSON.stringify(rows(40, 2_500)));
    // The event loop's own work: with the worker, it only copies bytes in and takes the sums back. On Linux, the
    // thread's CPU time (/proc/thread-self), which a loaded machine does not inflate as it does the loop's busy
    // wall time (a thread taken off its core mid-callback counts as busy); elsewhere, the busy time.
    const threadCpuMs = () => {
      const stat = readFileSync("/proc/thread-self/stat", "utf8");
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 13)
        .map(Number);
      return (utime! + stime!) * 10; // clock ticks of 10 ms
    };
    const busy = async (offThread: boolean) => {
      const [cpuBefore, loopBefore] = [process.platform === "linux" ? threadCpuMs() : 0, performance.eventLoopUtilization()];
      await all(sumRowBody(body(large, 64 * 1024), SUMS, offThread));
      return process.platform === "linux" ? threadCpuMs() - cpuBefore : performance.eventLoopUtilization(loopBefore).active;
    };
    await busy(true); // the worker's program is compiled once
    // The least of three each, alternated: a collection of the test process's own heap may fall in any one.
    const [offThread, inThread] = [[] as number[], [] as number[]];
    for (let round = 0; round < 3; round++) {
      offThread.push(await busy(true));
      inThread.push(await busy(false));
    }
    expect(Math.min(...offThread)).toBeLessThan(Math.min(...inThread) / 2);
  });
});
