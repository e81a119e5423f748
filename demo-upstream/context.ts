/** Types shared by the server pipeline and the route handlers. */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Anomalies } from "./anomalies";
import type { ScopedKey } from "./auth";
import type { FaultInjector, RouteId } from "./faults";
import type { OrganizationFixture, StoreFixture } from "./fixtures";
import type { DemoState } from "./state";

/** Everything one server instance owns; two instances never share any of it. */
export interface Runtime {
  seed: number;
  scale: number;
  control: boolean;
  /** Odd mode: the odd store (odd-fixtures.ts) is served; switched by PUT /__control/odd. */
  odd: boolean;
  /** Odd mode as started, restored by a reset. */
  oddAtStart: boolean;
  state: DemoState;
  faults: FaultInjector;
  /** Injected drops of a channel's sales (PUT /__control/anomalies). */
  anomalies: Anomalies;
  counts: Record<RouteId, number>;
  /** Which key made each authenticated call (its label, never the key), for tests of a key ring; the last 1,000. */
  keyUses: KeyUse[];
  /** Product streams still running (tests check that a disconnect stops generation). */
  openStreams: number;
}

export interface KeyUse {
  /** The key's label in the fixtures ("Admin — Northwind EU"). */
  key: string;
  route: RouteId;
  /** The store the path names, if any. */
  storeUrl: string | null;
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  params: { storeUrl?: string; pixelId?: string };
  query: URLSearchParams;
  /** Raw request body of POST routes, null otherwise. */
  body: string | null;
  key: ScopedKey;
  organization: OrganizationFixture;
  /** Set on store-scoped routes, after the scope checks passed. */
  store: StoreFixture | null;
  runtime: Runtime;
  /** Fault injection asked for a cut-off body. */
  truncate: boolean;
}

/** A handler either returns the JSON body of a 200, or has already streamed its answer. */
export const STREAMED = Symbol("streamed");
export type HandlerResult = { json: unknown } | typeof STREAMED;
export type Handler = (ctx: RequestContext) => Promise<HandlerResult> | HandlerResult;

export function requireStore(ctx: RequestContext): StoreFixture {
  if (!ctx.store) throw new Error("store-scoped handler called without a store");
  return ctx.store;
}
