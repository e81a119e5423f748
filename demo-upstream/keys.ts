import { ODD_KEY } from "./odd-fixtures";

/**
 * The demo's API keys, one per person and store (and a few in odd states). Key strings are
 * referenced verbatim by docs, tests and the dashboard's login screen: do not change them.
 */

export type Permission = "analytics:read" | "tracking-connections:delete" | "campaigns:clone";
export type KeyState = "active" | "expired" | "revoked" | "legacy";

const ALL_PERMISSIONS: readonly Permission[] = ["analytics:read", "tracking-connections:delete", "campaigns:clone"];

export interface KeyFixture {
  key: string;
  label: string;
  state: KeyState;
  organizationId: string | null;
  storeUrl: string | null;
  permissions: readonly Permission[];
  userId: string;
}

const NW_US = "northwind-outfitters.myshopify.com";

export const KEYS: readonly KeyFixture[] = [
  {
    key: "sk_demo_admin_nw_us_5d8e2f41c7a9",
    label: "Admin — Northwind US",
    state: "active",
    organizationId: "org_northwind",
    storeUrl: NW_US,
    permissions: ALL_PERMISSIONS,
    userId: "usr_2b6f0c1e9a",
  },
  {
    key: "sk_demo_marketer_nw_us_9b1c6e03d2f4",
    label: "Marketer — Northwind US (read only)",
    state: "active",
    organizationId: "org_northwind",
    storeUrl: NW_US,
    permissions: ["analytics:read"],
    userId: "usr_7d41a9e3c0",
  },
  {
    key: "sk_demo_manager_nw_us_7c2e5a90f3b1",
    label: "Manager — Northwind US (may clone campaigns)",
    state: "active",
    organizationId: "org_northwind",
    storeUrl: NW_US,
    permissions: ["analytics:read", "campaigns:clone"],
    userId: "usr_c93e5b27f4",
  },
  {
    key: "sk_demo_admin_nw_eu_2a7f94c1e8b3",
    label: "Admin — Northwind EU",
    state: "active",
    organizationId: "org_northwind",
    storeUrl: "northwind-eu.myshopify.com",
    permissions: ALL_PERMISSIONS,
    userId: "usr_2b6f0c1e9a",
  },
  {
    key: "sk_demo_expired_nw_us_6e3b8d52a1f0",
    label: "Expired key",
    state: "expired",
    organizationId: "org_northwind",
    storeUrl: NW_US,
    permissions: ["analytics:read"],
    userId: "usr_7d41a9e3c0",
  },
  {
    key: "sk_demo_revoked_nw_us_c4a19f7e2d68",
    label: "Revoked key",
    state: "revoked",
    organizationId: "org_northwind",
    storeUrl: NW_US,
    permissions: ALL_PERMISSIONS,
    userId: "usr_c93e5b27f4",
  },
  {
    key: "sk_demo_legacy_unscoped_8f2d5b1a9c37",
    label: "Legacy key without store scope",
    state: "legacy",
    organizationId: null,
    storeUrl: null,
    permissions: [],
    userId: "usr_2b6f0c1e9a",
  },
  {
    key: "sk_demo_admin_kumo_jp_3c9e71f4b2a5",
    label: "Admin — Kumo Living JP (second organization)",
    state: "active",
    organizationId: "org_kumo",
    storeUrl: "kumo-living.jp",
    permissions: ALL_PERMISSIONS,
    userId: "usr_48fa0d6b12",
  },
  {
    key: "sk_demo_admin_kumo_au_e81d4c6b0a27",
    label: "Admin — Kumo Living AU",
    state: "active",
    organizationId: "org_kumo",
    storeUrl: "kumo-living-au.myshopify.com",
    permissions: ALL_PERMISSIONS,
    userId: "usr_48fa0d6b12",
  },
];

export function findKey(key: string, odd = false): KeyFixture | undefined {
  return KEYS.find((fixture) => fixture.key === key) ?? (odd && key === ODD_KEY.key ? ODD_KEY : undefined);
}
