/**
 * The odd store: one extra organization, store, user and key whose values are all
 * contract-valid and all unusual, served only in odd mode (`--odd`, or PUT /__control/odd).
 * A time zone written as a Rails/Shopify display name that no runtime knows, a currency
 * code Intl refuses, an unknown store type and role, 300-character, right-to-left and emoji
 * names, a 300-character ID. Off, the demo's data set is exactly what it is without it.
 */

import type { OrganizationFixture, StoreFixture, UserFixture } from "./fixtures";
import type { KeyFixture } from "./keys";

export const ODD_KEY_STRING = "sk_demo_admin_odd_7f3a9c2e5b10";

/** 300 characters, no spaces to wrap at. */
const LONG_ID = `store_${"0123456789ABCDEFGHJKMNPQRSTVWXYZ".repeat(10)}`.slice(0, 300);
export const LONG_NAME = `Very long name ${"with many words and no end in sight ".repeat(9)}`.slice(0, 300);

export const ODD_ORGANIZATION: OrganizationFixture = {
  id: "org_odd_data_lab",
  name: "מעבדת נתונים מוזרים 🧪 Odd Data Lab",
  slug: "odd-data-lab",
  createdAt: "2024-01-01T12:00:00.000Z",
};

export const ODD_STORE: StoreFixture = {
  id: LONG_ID,
  url: "odd-data-lab.example",
  name: "🧪 متجر البيانات الغريبة",
  type: "headless-commerce-v2",
  currency: "USDT",
  currencyDecimals: 2,
  timezone: "Eastern Time (US & Canada)",
  organizationId: ODD_ORGANIZATION.id,
  createdAt: "2024-01-01T12:00:00.000Z",
  updatedAt: "2025-12-31T12:00:00.000Z",
  // Unused by the odd data, which is written by hand (odd-data.ts), but part of a store.
  skuPrefix: "OD",
  theme: "home",
  productIdStyle: "shopify",
  domain: "odd-data-lab.example",
  timestampUnit: "ms",
  countryWeights: [],
  channelWeights: [],
  iosShare: 0.5,
};

export const ODD_USER: UserFixture = {
  id: "usr_odd_0d0d0d0d",
  name: `${"ש".repeat(3)} 👩🏽‍💻 ${LONG_NAME}`.slice(0, 300),
  email: "odd.user@odd-data-lab.example",
  emailVerified: false,
  image: null,
  roles: { [ODD_ORGANIZATION.id]: "store-auditor (custom role)" },
};

export const ODD_KEY: KeyFixture = {
  key: ODD_KEY_STRING,
  label: "Admin — Odd Data Lab (unusual values)",
  state: "active",
  organizationId: ODD_ORGANIZATION.id,
  storeUrl: ODD_STORE.url,
  permissions: ["analytics:read", "tracking-connections:delete", "campaigns:clone"],
  userId: ODD_USER.id,
};

export function isOddStore(store: { url: string }): boolean {
  return store.url === ODD_STORE.url;
}
