/** Reading exported CSV files back: their records, and what changed between two of them. */

/** The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++;
      record.push(field);
      records.push(record);
      [record, field] = [[], ""];
    } else field += char;
  }
  if (field !== "" || record.length > 0) records.push([...record, field]);
  return records;
}

/** The file's data rows: its records less the header line. */
export const dataRowCount = (text: string) => Math.max(0, parseCsv(text).length - 1);

export interface Figures {
  orders: number;
  units: number;
  revenue: number;
}

export interface Change {
  /** The day (raw rows) or the product ID (product table). */
  key: string;
  label: string;
  before: Figures | null;
  after: Figures | null;
}

/** Sums per day (raw rows, by `date`) or per product (the table, by "Product ID"). */
function sums(text: string, kind: "products" | "rows"): Map<string, { label: string; figures: Figures }> {
  const [header = [], ...rows] = parseCsv(text);
  const column = (name: RegExp) => header.findIndex((cell) => name.test(cell));
  const [key, label, orders, units, revenue] =
    kind === "rows"
      ? [column(/^date$/), column(/^date$/), column(/^orders$/), column(/^units$/), column(/^revenue$/)]
      : [column(/^Product ID$/), column(/^Product$/), column(/^Orders$/), column(/^Units$/), column(/^Revenue/)];
  const result = new Map<string, { label: string; figures: Figures }>();
  for (const row of rows) {
    const id = row[key] ?? "";
    const entry = result.get(id) ?? { label: row[label] || id, figures: { orders: 0, units: 0, revenue: 0 } };
    entry.figures.orders += Number(row[orders] ?? 0) || 0;
    entry.figures.units += Number(row[units] ?? 0) || 0;
    entry.figures.revenue += Number(row[revenue] ?? 0) || 0;
    result.set(id, entry);
  }
  return result;
}

/** Sums equal to a millionth of a unit: a file at full precision summed in another order still matches. */
const same = (a: Figures, b: Figures) =>
  (["orders", "units", "revenue"] as const).every((name) => Math.abs(a[name] - b[name]) <= 1e-6 * Math.max(1, Math.abs(a[name])));

/** The days (or products) whose figures differ between the file as exported and as made again now. */
export function changesBetween(before: string, after: string, kind: "products" | "rows"): Change[] {
  const [old, now] = [sums(before, kind), sums(after, kind)];
  const keys = [...new Set([...old.keys(), ...now.keys()])].sort();
  return keys.flatMap((key) => {
    const [a, b] = [old.get(key), now.get(key)];
    if (a && b && same(a.figures, b.figures)) return [];
    return [{ key, label: (a ?? b)!.label, before: a?.figures ?? null, after: b?.figures ?? null }];
  });
}

/** The SHA-256 of some bytes, as lowercase hex. */
export async function sha256Hex(bytes: BufferSource): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
