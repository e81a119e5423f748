/**
 * Products and ads of one store, derived from (seed, scale, store) only. Built once per
 * combination and cached, with the JSON fragments the row serializer needs precomputed.
 */

import { findStore, type StoreFixture } from "./fixtures";
import { AD_FORMATS, AUDIENCES, CAMPAIGN_THEMES, PRODUCT_VOCABULARY } from "./names";
import { Rng, WeightedPicker } from "./random";

const AD_CHANNELS = ["facebook", "google", "tiktok", "linkedin", "pinterest", "snapchat"] as const;
export const ALL_CHANNELS = [...AD_CHANNELS, "email", "organic"] as const;
type AdStatus = "ACTIVE" | "PAUSED" | "ARCHIVED";

export interface Product {
  id: string;
  name: string;
  sku: string;
  price: number;
  /** `"product_id":…,"product_name":…,"product_sku":…,"currency":…` ready to splice into a row. */
  json: string;
}

export interface Ad {
  id: string;
  channel: string;
  name: string;
  campaignName: string;
  status: AdStatus;
  effectiveStatus: string;
  /** Deleted on the platform: still seen in historical rows, but enrich cannot resolve it. */
  deleted: boolean;
  json: string;
}

export interface StoreCatalog {
  store: StoreFixture;
  seed: number;
  scale: number;
  products: Product[];
  productPicker: WeightedPicker<Product>;
  ads: Map<string, Ad[]>;
  adPickers: Map<string, WeightedPicker<Ad>>;
  /** Only ads that still exist on their platform, by channel then ID. */
  resolvableAds: Map<string, Map<string, Ad>>;
  /** Memo for expensive, deterministic answers (dimension scans); bounded. */
  memo: Map<string, unknown>;
}

function productCount(scale: number): number {
  return Math.max(5, Math.round(40 * scale));
}

function adsPerChannel(scale: number): number {
  return Math.max(2, Math.round(8 * scale));
}

/** Money rounded to the currency's minor unit (none for JPY). */
export function roundMoney(value: number, decimals: 0 | 2): number {
  return decimals === 0 ? Math.round(value) : Math.round(value * 100) / 100;
}

function localPrice(rng: Rng, store: StoreFixture, usd: number): number {
  switch (store.currency) {
    case "JPY":
      return rng.chance(0.5) ? Math.ceil((usd * 150) / 1000) * 1000 - 20 : Math.round((usd * 150) / 100) * 100;
    case "EUR":
      return Math.round(usd * 0.95) - (rng.chance(0.4) ? 0.1 : 0);
    case "AUD":
      return Math.round(usd * 1.55) - (rng.chance(0.5) ? 0.05 : 0);
    default:
      return Math.round(usd) - (rng.chance(0.4) ? 0.05 : 0);
  }
}

function buildProducts(rng: Rng, store: StoreFixture, count: number): Product[] {
  const vocabulary = PRODUCT_VOCABULARY[store.theme];
  const combos: Array<[string, number, string]> = [];
  for (const prefix of vocabulary.prefixes) {
    vocabulary.kinds.forEach((_, kindIndex) => {
      for (const color of vocabulary.colors) combos.push([prefix, kindIndex, color]);
    });
  }
  const order = rng.shuffle(combos);
  const usedIds = new Set<string>();
  let wooId = 1000 + rng.int(0, 400);
  const products: Product[] = [];
  for (let index = 0; index < count; index++) {
    const [prefix, kindIndex, color] = order[index % order.length] as [string, number, string];
    const kind = vocabulary.kinds[kindIndex]!;
    const edition = index >= order.length ? ` No. ${Math.floor(index / order.length) + 1}` : "";
    const name = `${prefix} ${kind.noun} — ${color}${edition}`;
    const sku = `${store.skuPrefix}-${kind.code}-${String(index + 1).padStart(4, "0")}`;
    let id: string;
    if (store.productIdStyle === "woocommerce") {
      wooId += rng.int(1, 23);
      id = String(wooId);
    } else {
      do id = `7${rng.int(2, 9)}${rng.digits(11)}`;
      while (usedIds.has(id));
    }
    usedIds.add(id);
    const price = localPrice(rng, store, rng.range(kind.minUsd, kind.maxUsd));
    const json =
      `"product_id":${JSON.stringify(id)},"product_name":${JSON.stringify(name)},` +
      `"product_sku":${JSON.stringify(sku)},"currency":${JSON.stringify(store.currency)}`;
    products.push({ id, name, sku, price, json });
  }
  return products;
}

function adId(rng: Rng, channel: string): string {
  switch (channel) {
    case "facebook":
      return `2385${rng.digits(13)}`;
    case "google":
      return `6${rng.int(1, 9)}${rng.digits(10)}`;
    case "tiktok":
      return `17${rng.int(6, 9)}${rng.digits(16)}`;
    case "linkedin":
      return `3${rng.int(1, 9)}${rng.digits(7)}`;
    case "pinterest":
      return `6875${rng.digits(8)}`;
    default: // snapchat uses UUIDs
      return `${rng.hex(8)}-${rng.hex(4)}-4${rng.hex(3)}-${rng.pick(["8", "9", "a", "b"])}${rng.hex(3)}-${rng.hex(12)}`;
  }
}

function buildAds(rng: Rng, store: StoreFixture, channel: string, count: number, usedIds: Set<string>): Ad[] {
  const themes = CAMPAIGN_THEMES[store.theme];
  const formats = AD_FORMATS[channel] ?? ["Standard"];
  const deletedCount = Math.max(1, Math.round(count * 0.1));
  const deletedIndexes = new Set(rng.shuffle([...Array(count).keys()]).slice(0, deletedCount));
  const ads: Ad[] = [];
  for (let index = 0; index < count; index++) {
    let id: string;
    do id = adId(rng, channel);
    while (usedIds.has(id));
    usedIds.add(id);
    const theme = rng.pick(themes);
    const roll = rng.next();
    const status: AdStatus = roll < 0.58 ? "ACTIVE" : roll < 0.88 ? "PAUSED" : "ARCHIVED";
    const effectiveStatus = status === "ACTIVE" && rng.chance(0.15) ? "CAMPAIGN_PAUSED" : status;
    const name = `${theme} — ${rng.pick(formats)} — ${rng.pick(AUDIENCES)}`;
    ads.push({
      id,
      channel,
      name,
      campaignName: theme,
      status,
      effectiveStatus,
      deleted: deletedIndexes.has(index),
      json: JSON.stringify(id),
    });
  }
  return ads;
}

function adWeight(rng: Rng, ad: Ad): number {
  const base = ad.deleted ? 0.6 : ad.status === "ACTIVE" ? 1 : ad.status === "PAUSED" ? 0.5 : 0.25;
  return base * rng.range(0.3, 1.7);
}

const cache = new Map<string, StoreCatalog>();

export function getStoreCatalog(seed: number, scale: number, storeUrl: string): StoreCatalog {
  const cacheKey = `${seed}|${scale}|${storeUrl}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const store = findStore(storeUrl);
  if (!store) throw new Error(`unknown demo store ${storeUrl}`);
  const rng = Rng.from(seed, scale, storeUrl, "catalog");
  const products = buildProducts(rng, store, productCount(scale));
  // Popularity follows a long tail: a few best sellers, many slow movers.
  const ranks = rng.shuffle([...products.keys()]);
  const productPicker = new WeightedPicker(products.map((product, i) => [product, 1 / Math.pow((ranks[i] ?? 0) + 1, 0.9)] as const));
  const ads = new Map<string, Ad[]>();
  const adPickers = new Map<string, WeightedPicker<Ad>>();
  const resolvableAds = new Map<string, Map<string, Ad>>();
  const usedIds = new Set<string>();
  for (const channel of AD_CHANNELS) {
    const list = buildAds(rng, store, channel, adsPerChannel(scale), usedIds);
    ads.set(channel, list);
    adPickers.set(channel, new WeightedPicker(list.map((ad) => [ad, adWeight(rng, ad)] as const)));
    resolvableAds.set(channel, new Map(list.filter((ad) => !ad.deleted).map((ad) => [ad.id, ad])));
  }
  const catalog: StoreCatalog = { store, seed, scale, products, productPicker, ads, adPickers, resolvableAds, memo: new Map() };
  if (cache.size >= 32) cache.clear();
  cache.set(cacheKey, catalog);
  return catalog;
}
