import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import type { WorkerReply } from "@/server/metrics/rows-protocol";
import { bundleRowsWorker } from "./build.mjs";
import { ROOT } from "./releases.mjs";

const dir = mkdtempSync(join(tmpdir(), "rows-worker-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the rows worker as a release carries it", () => {
  it("is one file that runs on its own (no tsx, no sources) and sums a body sent in chunks", async () => {
    const file = join(dir, "rows-worker.mjs");
    await bundleRowsWorker(ROOT, file);
    const worker = new Worker(file);
    const replies: WorkerReply[] = [];
    const done = new Promise<void>((resolve, reject) => {
      worker.on("message", (reply: WorkerReply) => {
        replies.push(reply);
        if (reply.type !== "summed") resolve();
      });
      worker.on("error", reject);
    });
    const row = (revenue: number) => ({ date: "2025-01-01", channel: "email", product_id: "p1", orders: 1, units: 2, revenue });
    const body = new TextEncoder().encode(JSON.stringify([row(10.1), row(0.2), row(5)]));
    worker.postMessage({ type: "start", options: { mode: "sums" } });
    for (const part of [body.slice(0, 40), body.slice(40)]) worker.postMessage({ type: "chunk", bytes: part }, [part.buffer]);
    worker.postMessage({ type: "end" });
    await done;
    await worker.terminate();
    const last = replies.at(-1)!;
    expect(last.type).toBe("done");
    expect(last.type === "done" && last.rows).toBe(3);
    expect(last.type === "done" && last.sums?.totals).toEqual({ orders: 3, units: 6, revenue: 10.1 + 0.2 + 5 });
  });
});
