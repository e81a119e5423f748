/**
 * Attributed order lines, generated one store-local day at a time from (seed, scale, store,
 * date) only. A day is always generated whole and then filtered, so a filtered answer is
 * an exact subset of the unfiltered one, whatever the range or the filters.
 */

import type { DimensionSource } from "@/shared/schemas/product-metrics";
import { roundMoney, type Ad, type Product, type StoreCatalog } from "./catalog";
import { LAST_DATA_DAY, storeFirstDay, type StoreFixture } from "./fixtures";
import { Rng, WeightedPicker } from "./random";

interface Touch {
  channel: string;
  ad: Ad | null;
  country: string;
  deviceType: string;
  os: string;
  browser: string;
}

interface OrderLine {
  /** Store-local seconds since midnight. */
  seconds: number;
  product: Product;
  orders: number;
  units: number;
  revenue: number;
  conversion: Touch;
  firstTouch: Touch;
}

export interface RowFilter {
  source: DimensionSource;
  channel?: string;
  adId?: string;
  countries?: ReadonlySet<string>;
  deviceTypes?: ReadonlySet<string>;
  os?: ReadonlySet<string>;
  browsers?: ReadonlySet<string>;
  productIds?: ReadonlySet<string>;
}

export const DEVICE_TYPES = ["desktop", "mobile", "tablet"] as const;
export const OPERATING_SYSTEMS = ["Android", "iOS", "Linux", "Windows", "macOS"] as const;
export const BROWSERS = ["Chrome", "Edge", "Firefox", "Safari", "Samsung Internet"] as const;

const picker = <T>(entries: ReadonlyArray<readonly [T, number]>) => new WeightedPicker(entries);
const DEVICE = picker([
  ["mobile", 62],
  ["desktop", 32],
  ["tablet", 6],
] as const);
const DESKTOP_OS = picker([
  ["Windows", 60],
  ["macOS", 33],
  ["Linux", 7],
] as const);
const BROWSER_BY_OS: Record<string, WeightedPicker<string>> = {
  iOS: picker([
    ["Safari", 85],
    ["Chrome", 13],
    ["Firefox", 2],
  ]),
  Android: picker([
    ["Chrome", 74],
    ["Samsung Internet", 21],
    ["Firefox", 5],
  ]),
  Windows: picker([
    ["Chrome", 64],
    ["Edge", 27],
    ["Firefox", 9],
  ]),
  macOS: picker([
    ["Safari", 52],
    ["Chrome", 41],
    ["Firefox", 7],
  ]),
  Linux: picker([
    ["Chrome", 58],
    ["Firefox", 42],
  ]),
};
/** Discovery leans on paid social and search; email rarely starts a journey. */
const FIRST_TOUCH_CHANNEL = picker([
  ["facebook", 30],
  ["google", 26],
  ["tiktok", 13],
  ["pinterest", 9],
  ["snapchat", 5],
  ["linkedin", 3],
  ["email", 4],
  ["organic", 10],
] as const);
/** Store-local hour of purchase: quiet nights, lunch bump, evening peak. */
const HOUR = picker(
  [0.9, 0.6, 0.4, 0.3, 0.3, 0.4, 0.8, 1.4, 2.0, 2.6, 3.0, 3.3, 3.6, 3.5, 3.4, 3.4, 3.5, 3.8, 4.2, 4.8, 5.2, 5.0, 3.8, 2.2].map(
    (weight, hour) => [hour, weight] as const,
  ),
);
/** Sunday first, as Date#getUTCDay counts. Weekends sell more. */
const WEEKDAY_FACTOR = [1.15, 0.95, 0.93, 0.95, 0.98, 1.05, 1.12];
const MONTH_FACTOR = [0.86, 0.84, 0.93, 0.95, 0.98, 0.96, 0.95, 0.98, 0.99, 1.04, 1.28, 1.38];

interface StorePickers {
  country: WeightedPicker<string>;
  channel: WeightedPicker<string>;
  mobileOs: WeightedPicker<string>;
}
const storePickers = new WeakMap<StoreFixture, StorePickers>();

function pickersFor(store: StoreFixture): StorePickers {
  let found = storePickers.get(store);
  if (!found) {
    found = {
      country: picker(store.countryWeights),
      channel: picker(store.channelWeights),
      mobileOs: picker([
        ["iOS", store.iosShare],
        ["Android", 1 - store.iosShare],
      ]),
    };
    storePickers.set(store, found);
  }
  return found;
}

/** First and last day (inclusive) with data inside [fromDay, toDay]; from > to means none. */
export function dataWindow(store: StoreFixture, fromDay: number, toDay: number): [number, number] {
  return [Math.max(fromDay, storeFirstDay(store)), Math.min(toDay, LAST_DATA_DAY)];
}

function lineCountForDay(catalog: StoreCatalog, day: number, rng: Rng): number {
  const years = (day - storeFirstDay(catalog.store)) / 365.25;
  const growth = Math.min(1.35, 1 + 0.05 * years);
  const date = new Date(day * 86_400_000);
  const seasonal = (WEEKDAY_FACTOR[date.getUTCDay()] ?? 1) * (MONTH_FACTOR[date.getUTCMonth()] ?? 1);
  const promo = rng.chance(0.02) ? 1.8 : 1; // the odd flash sale
  return Math.max(0, Math.round(80 * catalog.scale * seasonal * growth * promo * rng.range(0.88, 1.12)));
}

function drawDevice(rng: Rng, pickers: StorePickers, touch: Touch): void {
  const deviceType = DEVICE.pick(rng);
  touch.deviceType = deviceType;
  touch.os =
    deviceType === "desktop"
      ? DESKTOP_OS.pick(rng)
      : deviceType === "tablet"
        ? rng.chance(0.7)
          ? "iOS"
          : "Android"
        : pickers.mobileOs.pick(rng);
  touch.browser = (BROWSER_BY_OS[touch.os] as WeightedPicker<string>).pick(rng);
}

function drawAd(rng: Rng, catalog: StoreCatalog, channel: string): Ad | null {
  const ads = catalog.adPickers.get(channel);
  return ads ? ads.pick(rng) : null;
}

/** Every order line of one store-local day, sorted by time. */
export function generateDay(catalog: StoreCatalog, day: number): OrderLine[] {
  const { store } = catalog;
  const rng = Rng.from(catalog.seed, catalog.scale, store.url, "day", day);
  const count = lineCountForDay(catalog, day, rng);
  const seconds = new Int32Array(count);
  for (let i = 0; i < count; i++) seconds[i] = HOUR.pick(rng) * 3600 + Math.floor(rng.next() * 3600);
  seconds.sort();
  const pickers = pickersFor(store);
  const lines: OrderLine[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const product = catalog.productPicker.pick(rng);
    const orderRoll = rng.next();
    const orders = orderRoll < 0.88 ? 1 : orderRoll < 0.97 ? 2 : 3;
    let units = orders;
    for (let o = 0; o < orders; o++) {
      const extra = rng.next();
      units += extra < 0.04 ? 2 : extra < 0.18 ? 1 : 0;
    }
    const discount = rng.chance(0.14) ? 1 - 0.05 * rng.int(2, 6) : 1;
    const revenue = roundMoney(product.price * units * discount, store.currencyDecimals);

    const channel = pickers.channel.pick(rng);
    const conversion: Touch = {
      channel,
      ad: drawAd(rng, catalog, channel),
      country: pickers.country.pick(rng),
      deviceType: "",
      os: "",
      browser: "",
    };
    drawDevice(rng, pickers, conversion);
    let firstTouch = conversion;
    if (!rng.chance(0.6)) {
      const firstChannel = FIRST_TOUCH_CHANNEL.pick(rng);
      firstTouch = {
        channel: firstChannel,
        ad: drawAd(rng, catalog, firstChannel),
        country: rng.chance(0.9) ? conversion.country : pickers.country.pick(rng),
        deviceType: conversion.deviceType,
        os: conversion.os,
        browser: conversion.browser,
      };
      if (rng.chance(0.35)) drawDevice(rng, pickers, firstTouch); // journeys that switch devices
    }
    lines[i] = { seconds: seconds[i] as number, product, orders, units, revenue, conversion, firstTouch };
  }
  return lines;
}

export function touchOf(line: OrderLine, source: DimensionSource): Touch {
  return source === "first_touch" ? line.firstTouch : line.conversion;
}

export function lineMatches(line: OrderLine, filter: RowFilter): boolean {
  const touch = filter.source === "first_touch" ? line.firstTouch : line.conversion;
  if (filter.channel !== undefined && touch.channel !== filter.channel) return false;
  if (filter.adId !== undefined && touch.ad?.id !== filter.adId) return false;
  if (filter.countries && !filter.countries.has(touch.country)) return false;
  if (filter.deviceTypes && !filter.deviceTypes.has(touch.deviceType)) return false;
  if (filter.os && !filter.os.has(touch.os)) return false;
  if (filter.browsers && !filter.browsers.has(touch.browser)) return false;
  if (filter.productIds && !filter.productIds.has(line.product.id)) return false;
  return true;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));

function formatTime(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds % 60]}`;
}

/** `{"shop":…,"date":…,"time":"` shared by every row of a day. */
export function rowPrefix(store: StoreFixture, date: string): string {
  return `{"shop":${JSON.stringify(store.url)},"date":"${date}","time":"`;
}

/** One row as JSON text, fields in contract order; built by hand because it is the hot path. */
export function serializeLine(prefix: string, line: OrderLine, source: DimensionSource, decimals: 0 | 2): string {
  const touch = source === "first_touch" ? line.firstTouch : line.conversion;
  const { orders, units, revenue } = line;
  const avgPrice = roundMoney(revenue / units, decimals);
  const perOrder = roundMoney(revenue / orders, decimals);
  const unitsPerOrder = Math.round((units / orders) * 100) / 100;
  return (
    `${prefix}${formatTime(line.seconds)}","channel":"${touch.channel}","ad_id":${touch.ad ? touch.ad.json : "null"},` +
    `${line.product.json},"orders":${orders},"order_count":${orders},"units":${units},"revenue":${revenue},` +
    `"avg_price":${avgPrice},"revenue_per_order":${perOrder},"units_per_order":${unitsPerOrder}}`
  );
}
