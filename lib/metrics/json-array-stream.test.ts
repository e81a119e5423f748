import { describe, expect, it } from "vitest";
import { MalformedJsonError, readJsonArray } from "./json-array-stream";

const encoder = new TextEncoder();

/** Splits a text into chunks of `size` bytes, as a network would. */
async function* chunks(text: string, size: number) {
  const bytes = encoder.encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function readAll(text: string, size: number) {
  const out: unknown[] = [];
  for await (const batch of readJsonArray(chunks(text, size))) out.push(...batch);
  return out;
}

const rows = [
  { a: 1, s: "plain" },
  { a: 2, s: "with } brace and ] bracket, comma" },
  { a: 3, s: 'escaped \\" quote and \\\\ backslash', nested: { list: [1, { x: [] }] } },
  { a: 4, s: "unicode — ü 日本" },
];

describe("readJsonArray", () => {
  it.each([1, 2, 3, 7, 64, 100_000])("reads every element whatever the chunk size (%i bytes)", async (size) => {
    expect(await readAll(JSON.stringify(rows, null, size % 2 ? 0 : 2), size)).toEqual(rows);
  });

  it("reads an empty array", async () => {
    expect(await readAll("[]", 1)).toEqual([]);
    expect(await readAll(" [ ] ", 2)).toEqual([]);
  });

  it.each([
    ["a truncated body", JSON.stringify(rows).slice(0, -30)],
    ["a body cut right after an element", JSON.stringify(rows).slice(0, -1)],
    ["an object instead of an array", '{"error":"x"}'],
    ["garbage", "not json at all"],
    ["a broken element", '[{"a":1},{"a":}]'],
    ["an empty body", ""],
  ])("rejects %s", async (_label, text) => {
    await expect(readAll(text, 5)).rejects.toBeInstanceOf(MalformedJsonError);
  });
});
