import { describe, expect, it } from "vitest";
import { MalformedJsonError, readJsonArray } from "./json-array-stream";

const encoder = new TextEncoder();

/** Splits a text into chunks of `size` bytes, as a network would. */
async function* chunks(text: string, size: number) {
  const bytes = encoder.encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function readBatches(text: string, size: number) {
  const batches: unknown[][] = [];
  for await (const batch of readJsonArray(chunks(text, size))) batches.push(batch);
  return batches;
}

async function readAll(text: string, size: number) {
  return (await readBatches(text, size)).flat();
}

const rows = [
  { a: 1, s: "plain" },
  { a: 2, s: "with } brace and ] bracket, comma { [" },
  { a: 3, s: 'escaped \\" quote and \\\\ backslash \\', nested: { list: [1, { x: [] }], 'key with "}"': '\\"}' } },
  { a: 4, s: "unicode — ü 日本 \u2028 emoji 😀", empty: "", quoteOnly: '"' },
  { a: 5, s: "trailing backslash \\" },
];

describe("readJsonArray", () => {
  it.each([1, 2, 3, 5, 7, 64, 100_000])("reads every element whatever the chunk size (%i bytes)", async (size) => {
    expect(await readAll(JSON.stringify(rows, null, size % 2 ? 0 : 2), size)).toEqual(rows);
  });

  it("reads elements that are arrays, strings, numbers and literals", async () => {
    const values = [[1, [2]], "a,b]", 3.5e2, true, null, { "]": "[" }, []];
    for (const size of [1, 4, 1000])
      expect(await readAll(` [ ${values.map((v) => JSON.stringify(v)).join(" , ")} ] `, size)).toEqual(values);
  });

  it("yields each chunk's complete elements as they arrive", async () => {
    const text = JSON.stringify(Array.from({ length: 100 }, (_, id) => ({ id, name: `row ${id}` })));
    const batches = await readBatches(text, 256);
    expect(batches.length).toBeGreaterThan(5);
    expect(batches.flat()).toHaveLength(100);
  });

  it("reads an empty array", async () => {
    expect(await readAll("[]", 1)).toEqual([]);
    expect(await readAll(" [ ] ", 2)).toEqual([]);
    expect(await readAll("[]\n", 1)).toEqual([]);
  });

  it("reads 4 MB elements in linear time, whatever their content", async () => {
    const big = (fill: string) => ({ id: fill.length, text: fill.repeat((4 * 1024 * 1024) / fill.length), nested: { list: [1, 2] } });
    // Braces and escaped quotes inside the strings: each was a parse attempt in a quadratic splitter.
    const elements = [big("}"), big('\\"}'), big("x")];
    const started = performance.now();
    const read = await readAll(JSON.stringify(elements), 16 * 1024);
    const elapsedMs = performance.now() - started;
    expect(read).toEqual(elements);
    // About 1 s on a slow machine; the quadratic splitter took minutes.
    expect(elapsedMs).toBeLessThan(10_000);
  });

  it.each([
    ["a truncated body", JSON.stringify(rows).slice(0, -30)],
    ["a body cut right after an element", JSON.stringify(rows).slice(0, -1)],
    ["a body cut inside a string", '[{"a":"}'],
    ["an object instead of an array", '{"error":"x"}'],
    ["garbage", "not json at all"],
    ["a broken element", '[{"a":1},{"a":}]'],
    ["mismatched brackets", '[{"a":1]]'],
    ["text after the array", '[{"a":1}] {"b":2}'],
    ["an empty body", ""],
    ["a whitespace body", "  \n"],
  ])("rejects %s", async (_label, text) => {
    for (const size of [1, 5, 1000]) await expect(readAll(text, size)).rejects.toBeInstanceOf(MalformedJsonError);
  });

  it("refuses an element larger than 8 MB rather than buffering it", async () => {
    const text = `[{"a":"${"x".repeat(9 * 1024 * 1024)}"}]`;
    await expect(readAll(text, 64 * 1024)).rejects.toThrow(/too large/);
  });
});
