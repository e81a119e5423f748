/** Shared helpers of the demo upstream contract tests (real HTTP against a real server). */

import type { DemoUpstream } from "./server";

export const KEY = {
  admin: "sk_demo_admin_nw_us_5d8e2f41c7a9",
  marketer: "sk_demo_marketer_nw_us_9b1c6e03d2f4",
  manager: "sk_demo_manager_nw_us_7c2e5a90f3b1",
  adminEu: "sk_demo_admin_nw_eu_2a7f94c1e8b3",
  expired: "sk_demo_expired_nw_us_6e3b8d52a1f0",
  revoked: "sk_demo_revoked_nw_us_c4a19f7e2d68",
  legacy: "sk_demo_legacy_unscoped_8f2d5b1a9c37",
  kumoJp: "sk_demo_admin_kumo_jp_3c9e71f4b2a5",
  kumoAu: "sk_demo_admin_kumo_au_e81d4c6b0a27",
} as const;

export const STORE = {
  nwUs: "northwind-outfitters.myshopify.com",
  nwEu: "northwind-eu.myshopify.com",
  kumoJp: "kumo-living.jp",
  kumoAu: "kumo-living-au.myshopify.com",
} as const;

interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  query?: Record<string, string>;
}

/** `path` is relative to the base URL (`/context`) or, when it starts with `//`, to the origin. */
export async function call(upstream: DemoUpstream, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(path.startsWith("//") ? `${upstream.origin}${path.slice(1)}` : `${upstream.baseUrl}${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEY.admin : options.key;
  if (key !== null) headers["x-api-key"] = key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(url, { method: options.method ?? "GET", headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export function storePath(prefix: string, storeUrl: string, suffix = ""): string {
  return `/${prefix}/${encodeURIComponent(storeUrl)}${suffix}`;
}

export interface Row {
  shop: string;
  date: string;
  time: string;
  channel: string;
  ad_id: string | null;
  product_id: string;
  revenue: number;
  orders: number;
  units: number;
  [field: string]: unknown;
}

export async function products(
  upstream: DemoUpstream,
  query: Record<string, string>,
  key: string = KEY.admin,
  storeUrl: string = STORE.nwUs,
): Promise<Row[]> {
  const res = await call(upstream, storePath("ad-metrics", storeUrl, "/products"), { key, query });
  if (res.status !== 200) throw new Error(`products answered ${res.status}: ${res.text}`);
  return res.body as Row[];
}

/** Multiset equality of rows, compared as JSON text. */
export function sameRows(a: readonly Row[], b: readonly Row[]): boolean {
  const left = a.map((row) => JSON.stringify(row)).sort();
  const right = b.map((row) => JSON.stringify(row)).sort();
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** True when `part` appears in `whole` in the same order (a filtered answer keeps the order). */
export function isSubsequence(part: readonly Row[], whole: readonly Row[]): boolean {
  let index = 0;
  for (const row of whole) {
    const wanted = part[index];
    if (wanted && JSON.stringify(wanted) === JSON.stringify(row)) index++;
  }
  return index === part.length;
}
