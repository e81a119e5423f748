/**
 * What the demo holds for a given seed: its keys (with their scope and permissions) and the
 * LinkedIn ad accounts with their initial campaign groups. Used by the sign-in page, docs,
 * `cli.ts --describe` and tests; nothing here depends on the data scale.
 */

import { initialAdAccounts } from "./assets";
import { KEYS, type KeyState, type Permission } from "./keys";
import { oddAdAccounts } from "./odd-data";
import { ODD_KEY } from "./odd-fixtures";

interface DemoKeyDescription {
  key: string;
  label: string;
  state: KeyState;
  organizationId: string | null;
  storeUrl: string | null;
  permissions: Permission[];
}

interface DemoAdAccountDescription {
  id: string;
  storeUrl: string;
  campaignGroups: Array<{ id: string; name: string; status: string }>;
}

interface DemoDescription {
  keys: DemoKeyDescription[];
  adAccounts: DemoAdAccountDescription[];
}

/** `odd`: the odd store's key and ad account are listed too. */
export function describeDemo(seed = 42, odd = false): DemoDescription {
  return {
    keys: (odd ? [...KEYS, ODD_KEY] : KEYS).map((key) => ({
      key: key.key,
      label: key.label,
      state: key.state,
      organizationId: key.organizationId,
      storeUrl: key.storeUrl,
      permissions: [...key.permissions],
    })),
    adAccounts: (odd ? [...initialAdAccounts(seed), ...oddAdAccounts()] : initialAdAccounts(seed)).map((account) => ({
      id: account.id,
      storeUrl: account.storeUrl,
      campaignGroups: account.campaignGroups.map((group) => ({ id: group.id, name: group.name, status: group.status })),
    })),
  };
}
