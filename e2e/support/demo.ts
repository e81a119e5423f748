import type { AnomalyRule } from "@/demo-upstream/anomalies";
import type { FaultRule } from "@/demo-upstream/faults";
import type { CloneRecord } from "@/demo-upstream/state";
import { E2E_DEMO_UPSTREAM_PORT } from "../../playwright.config";

/** The demo upstream the end-to-end dashboard runs on, and its control endpoints. */
const control = `http://127.0.0.1:${E2E_DEMO_UPSTREAM_PORT}/__control`;

export const KEYS = {
  admin: "sk_demo_admin_nw_us_5d8e2f41c7a9",
  marketer: "sk_demo_marketer_nw_us_9b1c6e03d2f4",
  manager: "sk_demo_manager_nw_us_7c2e5a90f3b1",
  expired: "sk_demo_expired_nw_us_6e3b8d52a1f0",
  revoked: "sk_demo_revoked_nw_us_c4a19f7e2d68",
  legacy: "sk_demo_legacy_unscoped_8f2d5b1a9c37",
  kumoJp: "sk_demo_admin_kumo_jp_3c9e71f4b2a5",
  euAdmin: "sk_demo_admin_nw_eu_2a7f94c1e8b3",
} as const;

export const US_STORE = "northwind-outfitters.myshopify.com";
export const EU_STORE = "northwind-eu.myshopify.com";

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${control}${path}`, init);
  if (!response.ok) throw new Error(`demo upstream control ${path}: ${response.status}`);
  return response.json() as Promise<unknown>;
}

export interface DemoState {
  pixels: Record<string, { id: string; name: string }[]>;
  clones: CloneRecord[];
  requestCounts: Record<string, number>;
  keyUses: { key: string; route: string; storeUrl: string | null }[];
}

export const demo = {
  reset: () => call("/reset", { method: "POST" }),
  /** Revokes a key in the running demo upstream, as its owner would mid-session. */
  revoke: (key: string) =>
    call("/revoke", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) }),
  setFaults: (rules: FaultRule[]) =>
    call("/faults", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(rules) }),
  /** A channel's sales drop to near zero from a day, until the next reset. */
  setAnomalies: (rules: AnomalyRule[]) =>
    call("/anomalies", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(rules) }),
  state: () => call("/state") as Promise<DemoState>,
  /** Serves the odd store (contract-valid, unusual values) until the next reset. */
  setOdd: (enabled: boolean) =>
    call("/odd", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled }) }),
};
