import { describe, expect, it } from "vitest";
import { isMetricRow, type MetricRow } from "./aggregate";
import { JsonArrayDecoder, MalformedJsonError } from "./json-array-stream";
import { RowShapeError } from "./row-sums";
import { RowScanner } from "./row-scanner";

/** A seeded generator, so a failure names the case that reproduces it. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof random>;

const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const FIELDS = ["date", "channel", "product_id", "orders", "units", "revenue", "ad_id", "product_name", "product_sku", "currency"] as const;
const NUMBERS = ["orders", "units", "revenue"];
const OPTIONAL = ["ad_id", "product_name", "product_sku", "currency"];

const space = (r: Random) => utf8(r.pick(["", "", "", " ", "\n", "\t", "\r\n  ", " \t\n\r "]));

const ESCAPES = [
  '\\"',
  "\\\\",
  "\\/",
  "\\b",
  "\\f",
  "\\n",
  "\\r",
  "\\t",
  "\\u0041",
  "\\u00e9",
  "\\u2028",
  "\\ud83d\\ude00",
  "\\ud800",
  "\\udfff",
  "\\u0000",
];
/** Raw bytes inside a string: valid UTF-8 of every length, and invalid sequences TextDecoder turns into U+FFFD. */
const RAW = [
  [0xc3, 0xa9],
  [0xe6, 0x97, 0xa5],
  [0xf0, 0x9f, 0x98, 0x80],
  [0xef, 0xbb, 0xbf],
  [0xff],
  [0xc3],
  [0xe6, 0x97],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
];
/** Strings a body repeats (the cache's case), some with escapes or non-ASCII. */
const POOL = [
  "2025-01-01",
  "2025-01-02",
  "facebook",
  "google",
  "USD",
  "EUR",
  "p1",
  "p2",
  "Blue Shirt",
  "caf\\u00e9",
  "café",
  "SKU-1",
  "",
  'a\\"b',
];

function stringToken(r: Random): number[] {
  if (r.chance(0.5)) return utf8(`"${r.pick(POOL)}"`);
  const bytes = [0x22];
  for (let n = r.int(12); n > 0; n--) {
    const kind = r.int(10);
    if (kind < 5) bytes.push(...utf8(String.fromCharCode(0x20 + r.int(95)).replace(/["\\]/, "x")));
    else if (kind < 7) bytes.push(...utf8(r.pick(ESCAPES)));
    else bytes.push(...r.pick(RAW));
  }
  return [...bytes, 0x22];
}

function digits(r: Random, n: number) {
  let text = String(1 + r.int(9));
  for (let i = 1; i < n; i++) text += r.int(10);
  return text;
}

function numberToken(r: Random): string {
  const sign = r.chance(0.2) ? "-" : "";
  switch (r.int(10)) {
    case 0:
      return r.pick(["0", "-0", "0.0", "-0.0", "0e5", "-0E-3", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308", "2e308"]);
    case 1:
      return `${sign}${digits(r, 1 + r.int(25))}`;
    case 2:
      return `${sign}${digits(r, 1 + r.int(8))}.${digits(r, 1 + r.int(20))}`;
    case 3:
      return `${sign}${digits(r, 1 + r.int(17))}${r.pick(["e", "E"])}${r.pick(["", "+", "-"])}${r.int(40)}`;
    case 4:
      return `${sign}0.${"0".repeat(r.int(25))}${digits(r, 1 + r.int(17))}`;
    case 5:
      return `${sign}${String(r.next() * 10 ** r.int(30))}`;
    case 6:
      return `${sign}${digits(r, 1 + r.int(3))}.${digits(r, 1 + r.int(3))}e${r.pick(["", "-", "+"])}${r.int(400)}`;
    default:
      return `${sign}${r.int(1000)}${r.chance(0.5) ? `.${r.int(100)}` : ""}`;
  }
}

function finiteNumberToken(r: Random): string {
  for (;;) {
    const token = numberToken(r);
    if (Number.isFinite(Number(token))) return token;
  }
}

function value(r: Random, depth = 0): number[] {
  const kind = r.int(depth > 2 ? 5 : 7);
  if (kind === 0) return stringToken(r);
  if (kind === 1) return utf8(numberToken(r));
  if (kind === 2) return utf8(r.pick(["true", "false", "null"]));
  if (kind === 3 || kind === 4) return stringToken(r);
  const items = Array.from({ length: r.int(4) }, () =>
    kind === 5
      ? [...space(r), ...stringToken(r), ...space(r), 0x3a, ...space(r), ...value(r, depth + 1), ...space(r)]
      : [...space(r), ...value(r, depth + 1), ...space(r)],
  );
  const [open, close] = kind === 5 ? [0x7b, 0x7d] : [0x5b, 0x5d];
  return [open, ...space(r), ...items.flatMap((item, i) => (i === 0 ? item : [0x2c, ...item])), ...space(r), close];
}

/** A key as written: plain, or (for a row's own keys, sometimes) with escapes that decode to the same name. */
function keyToken(r: Random, name: string): number[] {
  if (r.chance(0.05)) return utf8(`"${name.replace(/^./, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`);
  return utf8(JSON.stringify(name));
}

/** A row's members; `broken` makes one property the wrong type or leaves a required one out. */
function rowMembers(r: Random, broken: boolean): number[][] {
  const members: number[][] = [];
  /** Keys given twice: JSON.parse keeps the last, placed after this earlier (any type) value. */
  const earlier: [string, number[]][] = [];
  const names: string[] = [];
  const member = (key: number[], val: number[]) => [...space(r), ...key, ...space(r), 0x3a, ...space(r), ...val, ...space(r)];
  const wrongAt = broken ? r.int(FIELDS.length) : -1;
  FIELDS.forEach((name, i) => {
    const optional = OPTIONAL.includes(name);
    if (i === wrongAt) {
      if (!optional && r.chance(0.3)) return;
      const wrong = NUMBERS.includes(name)
        ? r.pick(["null", '"1"', "true", "[]", "{}", "1e400", "-1e999"])
        : r.pick(["1", "true", "false", "[]", '{"a":1}', ...(optional ? [] : ["null"])]);
      members.push(member(keyToken(r, name), utf8(wrong)));
      names.push("");
      return;
    }
    if (optional && r.chance(0.3)) return;
    if (r.chance(0.05)) earlier.push([name, member(keyToken(r, name), value(r))]);
    const good = NUMBERS.includes(name) ? utf8(finiteNumberToken(r)) : optional && r.chance(0.2) ? utf8("null") : stringToken(r);
    members.push(member(keyToken(r, name), good));
    names.push(name);
  });
  for (let n = r.int(4); n > 0; n--) {
    const key = r.chance(0.2)
      ? utf8(JSON.stringify(r.pick(["__proto__", "constructor", "toString", "dätë", "date ", "Date"])))
      : stringToken(r);
    const at = r.int(members.length + 1);
    members.splice(at, 0, member(key, value(r)));
    names.splice(at, 0, "");
  }
  const order = members.map((m, i) => ({ m, name: names[i] ?? "", key: r.next() })).sort((a, b) => a.key - b.key);
  for (const [name, m] of earlier) {
    const at = order.findIndex((item) => item.name === name);
    order.splice(r.int(at + 1), 0, { m, name: "", key: 0 });
  }
  return order.map((item) => item.m);
}

const rowBytes = (members: number[][]) => [0x7b, ...members.flatMap((m, i) => (i === 0 ? m : [0x2c, ...m])), 0x7d];

/** Edits that make an element invalid JSON whatever surrounds it. */
const BREAKS: ((row: number[]) => number[])[] = [
  (row) => [...row.slice(0, -1), ...utf8(',"x":01}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":+1}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":1.}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":.5}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":1e}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":-}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":tru}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":nul}')],
  (row) => [...row.slice(0, -1), ...utf8(",\"x\":'a'}")],
  (row) => [...row.slice(0, -1), ...utf8(',"x" 1}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":1 "y":2}')],
  (row) => [...row.slice(0, -1), ...utf8(",}")],
  (row) => [...row.slice(0, -1), ...utf8(',"x":[1,}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":[1,]}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":"\\x"}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":"\\u12G4"}')],
  (row) => [...row.slice(0, -1), 0x2c, 0x22, 0x78, 0x22, 0x3a, 0x22, 0x01, 0x22, 0x7d],
  (row) => [...row.slice(0, -1), 0x2c, 0x22, 0x78, 0x09, 0x22, 0x3a, 0x31, 0x7d],
  (row) => [...row.slice(0, -1), ...utf8(',"x":{"a":1]}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":1}}')],
  (row) => [...row.slice(0, -1), ...utf8(',"x":\u00a01}')],
  (row) => [...row, ...utf8("{}")],
];

type Outcome = { rows: MetricRow[] } | { error: string };

const pickRow = (row: MetricRow): MetricRow => Object.fromEntries(FIELDS.map((name) => [name, row[name]])) as unknown as MetricRow;
const errorName = (error: unknown) =>
  error instanceof MalformedJsonError ? "MalformedJsonError" : error instanceof RowShapeError ? "RowShapeError" : String(error);

function chunked(bytes: Uint8Array, r: Random): Uint8Array[] {
  const mode = r.int(4);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = mode === 0 ? 1 : mode === 1 ? 1 + r.int(16) : mode === 2 ? 1 + r.int(400) : r.chance(0.5) ? 1 : 1 + r.int(5000);
    out.push(bytes.slice(at, (at += size)));
  }
  return out;
}

/** Today's reading: JsonArrayDecoder, then isMetricRow on each element. */
function reference(chunks: Uint8Array[]): Outcome {
  const decoder = new JsonArrayDecoder();
  const rows: MetricRow[] = [];
  const take = (elements: unknown[]) => {
    for (const element of elements) if (!isMetricRow(element)) throw new RowShapeError("shape");
    rows.push(...(elements as MetricRow[]).map(pickRow));
  };
  try {
    for (const chunk of chunks) take(decoder.push(chunk));
    take(decoder.end());
    decoder.checkComplete();
    return { rows };
  } catch (error) {
    return { error: errorName(error) };
  }
}

function scanned(chunks: Uint8Array[]): Outcome {
  const scanner = new RowScanner();
  const rows: MetricRow[] = [];
  try {
    for (const chunk of chunks) scanner.push(chunk, (row) => rows.push(pickRow(row)));
    scanner.end();
    scanner.checkComplete();
    return { rows };
  } catch (error) {
    return { error: errorName(error) };
  }
}

/** Object.is on every property, so -0, NaN-free doubles and lone surrogates must match exactly. */
function expectSame(actual: Outcome, expected: Outcome, seed: number) {
  if ("error" in expected || "error" in actual) return expect({ seed, ...actual }).toEqual({ seed, ...expected });
  expect({ seed, rows: actual.rows.length }).toEqual({ seed, rows: expected.rows.length });
  actual.rows.forEach((row, i) => {
    for (const name of FIELDS)
      if (!Object.is(row[name], expected.rows[i]![name]))
        expect({ seed, row: i, name, value: row[name] }).toEqual({ seed, row: i, name, value: expected.rows[i]![name] });
  });
}

type Fault = "none" | "shape" | "malformed" | "truncated" | "trailing";

function body(r: Random, fault: Fault): Uint8Array {
  const count = r.int(12);
  const rows = Array.from({ length: count }, () => rowBytes(rowMembers(r, false)));
  if (fault === "shape") {
    const bad = r.chance(0.2) ? value(r) : rowBytes(rowMembers(r, true));
    rows.splice(r.int(count + 1), 0, bad[0] === 0x7b ? bad : r.chance(0.5) ? bad : utf8(r.pick(["1", '"row"', "null", "[]", "true"])));
  }
  if (fault === "malformed") rows.splice(r.int(count + 1), 0, r.pick(BREAKS)(rowBytes(rowMembers(r, false))));
  const lead = r.chance(0.1) ? [0xef, 0xbb, 0xbf] : r.chance(0.1) ? utf8("\u00a0\u2028 ") : [];
  const trail = r.chance(0.1) ? utf8("\u3000\n") : [];
  let bytes = [
    ...lead,
    ...space(r),
    0x5b,
    ...space(r),
    ...rows.flatMap((row, i) => [...(i === 0 ? [] : [0x2c]), ...space(r), ...row, ...space(r)]),
    0x5d,
    ...space(r),
    ...trail,
  ];
  if (fault === "truncated") bytes = bytes.slice(0, r.int(bytes.length));
  if (fault === "trailing") bytes.push(...utf8(r.pick(["x", "[]", "{}", "0", ",", "]", " \u00ff"])));
  return Uint8Array.from(bytes);
}

describe("RowScanner", () => {
  it.each<Fault>(["none", "shape", "malformed", "truncated", "trailing"])(
    "reads what JsonArrayDecoder and isMetricRow read, faults: %s",
    (fault) => {
      for (let seed = 1; seed <= 250; seed++) {
        const r = random(seed * 7919 + fault.length);
        const bytes = body(r, fault);
        const expected = reference([bytes]);
        if (fault === "shape") expect({ seed, ...expected }).toEqual({ seed, error: "RowShapeError" });
        if (fault === "malformed" || fault === "trailing") expect({ seed, ...expected }).toEqual({ seed, error: "MalformedJsonError" });
        expectSame(scanned(chunked(bytes, r)), expected, seed);
        expectSame(scanned([bytes]), expected, seed);
      }
    },
    120_000,
  );

  it("reads rows whose strings and numbers span chunks of one byte", () => {
    const text = `[{"date":"2025-01-01","channel":"caf\u00e9 \\ud83d\\ude00","product_id":"p\\n1","orders":-0,"units":1e2,"revenue":0.30000000000000004,"x":[{"y":"\\""}]}]`;
    const bytes = new TextEncoder().encode(text);
    const expected = reference([bytes]);
    expect("rows" in expected && expected.rows.length).toBe(1);
    expectSame(scanned([...bytes].map((b) => Uint8Array.of(b))), expected, 0);
  });

  it("refuses an element larger than the bound, and an empty body", () => {
    const big = new TextEncoder().encode(`[{"date":"${"x".repeat(9 * 1024 * 1024)}"}]`);
    const chunks = Array.from({ length: Math.ceil(big.length / 65536) }, (_, i) => big.subarray(i * 65536, (i + 1) * 65536));
    expect(scanned(chunks)).toEqual({ error: "MalformedJsonError" });
    expect(scanned([])).toEqual({ error: "MalformedJsonError" });
    expect(scanned([new Uint8Array([0x5b, 0x5d])])).toEqual({ rows: [] });
  });
});
