/** GET products (streamed rows) and GET dimensions (distinct filter values). */

import { splitCommaList } from "@/shared/schemas/common";
import { dimensionsQuerySchema, productsQuerySchema, type DimensionSource } from "@/shared/schemas/product-metrics";
import { setImmediate as nextTick } from "node:timers/promises";
import { getStoreCatalog, type StoreCatalog } from "@/demo-upstream/catalog";
import { requireStore, STREAMED, type HandlerResult, type RequestContext } from "@/demo-upstream/context";
import { dayNumber, LAST_DATA_DAY, storeFirstDay } from "@/demo-upstream/fixtures";
import { parseQuery } from "@/demo-upstream/input";
import { ODD_DIMENSIONS, oddProductRows } from "@/demo-upstream/odd-data";
import { isOddStore } from "@/demo-upstream/odd-fixtures";
import {
  BROWSERS,
  DEVICE_TYPES,
  OPERATING_SYSTEMS,
  dataWindow,
  generateDay,
  lineMatches,
  touchOf,
  type RowFilter,
} from "@/demo-upstream/rows";
import { streamRows } from "@/demo-upstream/stream";

function listFilter(value: string | undefined): Set<string> | undefined {
  return value === undefined ? undefined : new Set(splitCommaList(value));
}

export async function products(ctx: RequestContext): Promise<HandlerResult> {
  const query = parseQuery(productsQuerySchema, ctx.query);
  const store = requireStore(ctx);
  if (isOddStore(store)) return { json: oddProductRows(query) };
  const filter: RowFilter = {
    source: query.dimension_source ?? "conversion",
    channel: query.channel,
    adId: query.adId,
    countries: listFilter(query.filterCountry),
    deviceTypes: listFilter(query.filterDeviceType),
    os: listFilter(query.filterOS),
    browsers: listFilter(query.filterBrowser),
    productIds: listFilter(query.filterProductId),
  };
  const catalog = getStoreCatalog(ctx.runtime.seed, ctx.runtime.scale, store.url);
  const [from, to] = dataWindow(store, dayNumber(query.startDate), dayNumber(query.endDate));
  await streamRows(ctx, catalog, from, to, filter);
  return STREAMED;
}

interface DimensionValues {
  countries: string[];
  deviceTypes: string[];
  os: string[];
  browsers: string[];
  productIds: string[];
}

/** Numeric IDs by value ("999" before "1000"), anything else as plain strings. */
function compareValues(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Scans the range for distinct values. Stops early once every set holds every possible
 * value: the answer cannot change any more, so it is still exact.
 */
async function scanDimensions(catalog: StoreCatalog, from: number, to: number, filter: RowFilter): Promise<DimensionValues> {
  const sets = {
    countries: new Set<string>(),
    deviceTypes: new Set<string>(),
    os: new Set<string>(),
    browsers: new Set<string>(),
    productIds: new Set<string>(),
  };
  const full = () =>
    sets.countries.size === catalog.store.countryWeights.length &&
    sets.deviceTypes.size === DEVICE_TYPES.length &&
    sets.os.size === OPERATING_SYSTEMS.length &&
    sets.browsers.size === BROWSERS.length &&
    sets.productIds.size === catalog.products.length;
  let sinceYield = 0;
  for (let day = from; day <= to; day++) {
    const lines = generateDay(catalog, day);
    for (const line of lines) {
      if (!lineMatches(line, filter)) continue;
      const touch = touchOf(line, filter.source);
      sets.countries.add(touch.country);
      sets.deviceTypes.add(touch.deviceType);
      sets.os.add(touch.os);
      sets.browsers.add(touch.browser);
      sets.productIds.add(line.product.id);
    }
    if (full()) break;
    sinceYield += lines.length;
    if (sinceYield >= 50_000) {
      sinceYield = 0;
      await nextTick(); // long scans must not starve other requests
    }
  }
  const sorted = (set: Set<string>) => [...set].sort(compareValues);
  return {
    countries: sorted(sets.countries),
    deviceTypes: sorted(sets.deviceTypes),
    os: sorted(sets.os),
    browsers: sorted(sets.browsers),
    productIds: sorted(sets.productIds),
  };
}

export async function dimensions(ctx: RequestContext) {
  const query = parseQuery(dimensionsQuerySchema, ctx.query);
  const store = requireStore(ctx);
  if (isOddStore(store)) return { json: ODD_DIMENSIONS };
  const source: DimensionSource = query.dimension_source ?? "conversion";
  // Without dates: the store's whole data window.
  const [from, to] = dataWindow(
    store,
    query.startDate ? dayNumber(query.startDate) : storeFirstDay(store),
    query.endDate ? dayNumber(query.endDate) : LAST_DATA_DAY,
  );
  const catalog = getStoreCatalog(ctx.runtime.seed, ctx.runtime.scale, store.url);
  const memoKey = JSON.stringify(["dimensions", from, to, source, query.channel ?? null, query.adId ?? null]);
  let values = catalog.memo.get(memoKey) as DimensionValues | undefined;
  if (!values) {
    values = await scanDimensions(catalog, from, to, { source, channel: query.channel, adId: query.adId });
    if (catalog.memo.size >= 64) catalog.memo.clear();
    catalog.memo.set(memoKey, values);
  }
  return { json: values };
}
