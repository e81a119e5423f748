/**
 * Large array elements (4 MB each, their strings full of braces and escaped quotes) read over
 * HTTP by the dashboard's streamed splitter against `await res.json()`, in one run. The
 * splitter must stay linear in the element size; res.json() is the floor it is compared to.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readJsonArray } from "@/server/metrics/json-array-stream";

const ELEMENT_CHARS = 4 * 1024 * 1024;
const ELEMENTS = 8;

function largeBody(): Buffer {
  const fills = ["}", '\\"}{', "x"];
  const elements = Array.from({ length: ELEMENTS }, (_, id) => {
    const fill = fills[id % fills.length]!;
    return { id, text: fill.repeat(ELEMENT_CHARS / fill.length), nested: { list: [id, { id }] } };
  });
  return Buffer.from(JSON.stringify(elements));
}

async function timed(read: () => Promise<number>): Promise<{ ms: number; elements: number }> {
  const started = performance.now();
  const elements = await read();
  return { ms: Math.round(performance.now() - started), elements };
}

export async function benchLargeElements() {
  const body = largeBody();
  // Written in 64 KB pieces, as a network delivers a large response.
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    for (let offset = 0; offset < body.length; offset += 65_536) response.write(body.subarray(offset, offset + 65_536));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const baseline = await timed(async () => ((await (await fetch(url)).json()) as unknown[]).length);
    const streamed = await timed(async () => {
      let count = 0;
      for await (const batch of readJsonArray((await fetch(url)).body!)) count += batch.length;
      return count;
    });
    if (streamed.elements !== ELEMENTS || baseline.elements !== ELEMENTS) throw new Error("the two paths disagree on the element count");
    const mib = (body.length / 1024 / 1024).toFixed(0);
    console.log(`\nLarge elements: ${ELEMENTS} elements of ${ELEMENT_CHARS / 1024 / 1024} MB (${mib} MiB), strings full of } and \\"`);
    console.log(`  baseline: res.json()            ${String(baseline.ms).padStart(6)} ms`);
    console.log(`  dashboard: streamed splitter    ${String(streamed.ms).padStart(6)} ms`);
    console.log(`  time ratio (streamed / baseline) ${(streamed.ms / baseline.ms).toFixed(2)}`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
