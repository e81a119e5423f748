/** Store profile, catalog connections and tracking connections (list and delete). */

import { getStoreCatalog } from "@/demo-upstream/catalog";
import { catalogConnections } from "@/demo-upstream/assets";
import { requireStore, type RequestContext } from "@/demo-upstream/context";
import { HttpError } from "@/demo-upstream/errors";
import { noQuerySchema, parseQuery } from "@/demo-upstream/input";
import { isOddStore } from "@/demo-upstream/odd-fixtures";

export function storeProfile(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const store = requireStore(ctx);
  return { json: { id: store.id, url: store.url, type: store.type, currency: store.currency, timezone: store.timezone, name: store.name } };
}

export function catalogs(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const store = requireStore(ctx);
  if (isOddStore(store)) return { json: [] };
  const { seed, scale } = ctx.runtime;
  return { json: catalogConnections(seed, store, getStoreCatalog(seed, scale, store.url).products.length) };
}

export function listPixels(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const store = requireStore(ctx);
  return { json: { storeUrl: store.url, pixels: ctx.runtime.state.pixelsOf(store.url) } };
}

export function deletePixel(ctx: RequestContext) {
  parseQuery(noQuerySchema, ctx.query);
  const store = requireStore(ctx);
  const pixelId = ctx.params.pixelId ?? "";
  const remaining = ctx.runtime.state.deletePixel(store.url, pixelId);
  if (!remaining) throw new HttpError(404, `tracking connection ${pixelId} was not found in store ${store.url}`);
  return { json: { storeUrl: store.url, pixels: remaining, ok: true } };
}
