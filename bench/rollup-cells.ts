/**
 * How many day-rollup cells a year of the demo US store takes at the rollups' grain (day ×
 * channel × product), what putting the ad in the grain would take, and what a few filtered keys
 * take: the figures behind the grain and the key bound in docs/decisions/rollups.md.
 *
 *   npx tsx bench/rollup-cells.ts [upstream base URL]
 *
 * Without a URL it starts a demo upstream at ROLLUP_BENCH_SCALE (default 3). One attribution
 * (`conversion`), the year 2025. Counts only: nothing is written anywhere.
 */
import { ADMIN_KEY, startDemoUpstreamProcess, US_STORE } from "./processes";

const YEAR = { startDate: "2025-01-01", endDate: "2025-12-31" };

type Row = { date: string; channel: string; product_id: string; ad_id?: string | null };

async function rowsOf(baseUrl: string, filters: Record<string, string> = {}): Promise<Row[]> {
  const query = new URLSearchParams({ ...YEAR, ...filters });
  const response = await fetch(`${baseUrl}/ad-metrics/${US_STORE}/products?${query}`, { headers: { "x-api-key": ADMIN_KEY } });
  if (!response.ok) throw new Error(`the upstream answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Row[];
}

const distinct = (rows: Row[], key: (row: Row) => string) => new Set(rows.map(key)).size;
const cell = (row: Row) => `${row.date}\u0000${row.channel}\u0000${row.product_id}`;
const cellWithAd = (row: Row) => `${cell(row)}\u0000${row.ad_id ?? ""}`;

/** The values each dimension lists (sorted by name). */
async function dimensionValues(baseUrl: string): Promise<{ countries: string[]; deviceTypes: string[]; os: string[]; browsers: string[] }> {
  const query = new URLSearchParams(YEAR);
  const response = await fetch(`${baseUrl}/ad-metrics/${US_STORE}/dimensions?${query}`, { headers: { "x-api-key": ADMIN_KEY } });
  return (await response.json()) as { countries: string[]; deviceTypes: string[]; os: string[]; browsers: string[] };
}

async function main() {
  const given = process.argv[2];
  const started = given ? undefined : await startDemoUpstreamProcess(["--scale", process.env.ROLLUP_BENCH_SCALE ?? "3"]);
  const baseUrl = given ?? started!.baseUrl;
  try {
    const all = await rowsOf(baseUrl);
    const ads = new Map<string, number>();
    for (const row of all) if (row.ad_id) ads.set(row.ad_id, (ads.get(row.ad_id) ?? 0) + 1);
    const topAd = [...ads.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const values = await dimensionValues(baseUrl);
    // The store's home country, where most of its orders are, when listed: the largest country key.
    const country = values.countries.includes("US") ? "US" : values.countries[0]!;
    const lines: [string, number, number][] = [
      ["unfiltered key: day × channel × product", all.length, distinct(all, cell)],
      ["the same with the ad in the grain", all.length, distinct(all, cellWithAd)],
    ];
    const keys: [string, Record<string, string>][] = [
      [`country=${values.countries[0]}`, { filterCountry: values.countries[0]! }],
      [`country=${country}`, { filterCountry: country }],
      [`device=${values.deviceTypes[0]}`, { filterDeviceType: values.deviceTypes[0]! }],
      [`os=${values.os[0]}`, { filterOS: values.os[0]! }],
      [`browser=${values.browsers[0]}`, { filterBrowser: values.browsers[0]! }],
      [
        `country=${values.countries.slice(0, 2).join(",")};device=${values.deviceTypes[0]}`,
        {
          filterCountry: values.countries.slice(0, 2).join(","),
          filterDeviceType: values.deviceTypes[0]!,
        },
      ],
      ...(topAd ? [[`ad=${topAd} (the ad with most rows)`, { adId: topAd }] as [string, Record<string, string>]] : []),
    ];
    for (const [name, filters] of keys) {
      const rows = await rowsOf(baseUrl, filters);
      lines.push([`key ${name}`, rows.length, distinct(rows, cell)]);
    }
    console.log(`Demo US store, 2025, conversion attribution (${baseUrl}); ${ads.size} distinct ads`);
    console.log("| Cells of | rows | cells | cells per day |");
    console.log("|---|---|---|---|");
    for (const [name, rows, cells] of lines)
      console.log(`| ${name} | ${rows.toLocaleString("en-US")} | ${cells.toLocaleString("en-US")} | ${(cells / 365).toFixed(1)} |`);
    // The product breakdown reads one product's rows upstream: at most this many for a year.
    const perProduct = new Map<string, number>();
    for (const row of all) perProduct.set(row.product_id, (perProduct.get(row.product_id) ?? 0) + 1);
    const counts = [...perProduct.values()].sort((a, b) => b - a);
    console.log(
      `A product's year of rows (the breakdown's upstream read): ${counts[0]!.toLocaleString("en-US")} at most, ${Math.round(all.length / counts.length).toLocaleString("en-US")} on average over ${counts.length} products`,
    );
  } finally {
    await started?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
