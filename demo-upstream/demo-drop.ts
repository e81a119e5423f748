/**
 * The drop the demo shows by default, so that an alert can be seen firing without any setting:
 * Kumo Living (Australia)'s facebook sales stop three store-local days before the demo started.
 * `--anomalies '[]'` starts without it.
 */

import type { AnomalyRule } from "./anomalies";
import { STORES } from "./fixtures";

export const DEMO_DROP_STORE = "kumo-living-au.myshopify.com";
export const DEMO_DROP_CHANNEL = "facebook";
const DAYS_BEFORE = 3;

export function defaultDemoAnomalies(now: Date): AnomalyRule[] {
  const store = STORES.find((candidate) => candidate.url === DEMO_DROP_STORE)!;
  const localToday = new Intl.DateTimeFormat("en-CA", {
    timeZone: store.timezone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  const from = new Date(Date.parse(`${localToday}T00:00:00Z`) - DAYS_BEFORE * 86_400_000).toISOString().slice(0, 10);
  return [{ storeUrl: DEMO_DROP_STORE, channel: DEMO_DROP_CHANNEL, from }];
}
