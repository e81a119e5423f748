import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changesBetween, dataRowCount, parseCsv, sha256Hex } from "./export-verify";

const rowsHeader = "shop,date,time,channel,ad_id,product_id,product_name,product_sku,currency,orders,units,revenue\r\n";
const row = (date: string, revenue: number, name = "Jacket") => `s,${date},10:00,google,,p1,"${name}",sku,USD,1,2,${revenue}\r\n`;

describe("reading exports back", () => {
  it("parses quoted fields with commas, quotes and line breaks", () => {
    expect(parseCsv('a,"b, ""c""\r\nd"\r\n1,2\r\n')).toEqual([
      ["a", 'b, "c"\r\nd'],
      ["1", "2"],
    ]);
    expect(dataRowCount(rowsHeader + row("2026-01-01", 1) + row("2026-01-02", 2, "Line\nbreak"))).toBe(2);
  });

  it("names the days whose figures changed, with before and after", () => {
    const before = rowsHeader + row("2026-01-01", 10) + row("2026-01-01", 5) + row("2026-01-02", 7);
    const after = rowsHeader + row("2026-01-01", 12) + row("2026-01-01", 3) + row("2026-01-02", 8) + row("2026-01-03", 1);
    expect(changesBetween(before, before, "rows")).toEqual([]);
    expect(changesBetween(before, after, "rows")).toEqual([
      { key: "2026-01-02", label: "2026-01-02", before: { orders: 1, units: 2, revenue: 7 }, after: { orders: 1, units: 2, revenue: 8 } },
      { key: "2026-01-03", label: "2026-01-03", before: null, after: { orders: 1, units: 2, revenue: 1 } },
    ]);
  });

  it("finds no change between a file and its rows in another order, and sums each day as the rows do", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day: fc.integer({ min: 1, max: 9 }), revenue: fc.integer({ min: -500, max: 5000 }) }), { maxLength: 40 }),
        (items) => {
          const lines = items.map((item) => row(`2026-01-0${item.day}`, item.revenue / 100));
          const shuffled = [...lines].reverse();
          expect(changesBetween(rowsHeader + lines.join(""), rowsHeader + shuffled.join(""), "rows")).toEqual([]);
          const changed = changesBetween(rowsHeader + lines.join(""), rowsHeader, "rows");
          expect(changed.map((change) => change.key)).toEqual([...new Set(items.map((item) => `2026-01-0${item.day}`))].sort());
          for (const change of changed) {
            const expected = items
              .filter((item) => `2026-01-0${item.day}` === change.key)
              .reduce((sum, item) => sum + item.revenue / 100, 0);
            expect(change.before!.revenue).toBeCloseTo(expected, 9);
          }
        },
      ),
    );
  });

  it("hashes as SHA-256 does", async () => {
    const bytes = new TextEncoder().encode("Product,SKU\r\n");
    expect(await sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
  });
});
