/**
 * The mutable part of one server instance: tracking connections (deletable), LinkedIn
 * campaign groups (clone adds one) and a log of clones. Never shared between instances;
 * reset() rebuilds it from the seed.
 */

import type { TrackingConnection } from "@/shared/schemas/tracking-connection";
import { initialAdAccounts, initialPixels, type AdAccount, type CampaignGroup } from "./assets";
import { oddAdAccounts } from "./odd-data";
import { ODD_STORE } from "./odd-fixtures";

export interface CloneRecord {
  storeUrl: string;
  adAccountId: string;
  sourceCampaignGroupId: string;
  campaignGroupId: string;
  name: string;
  status: string;
  at: string;
}

export class DemoState {
  pixels = new Map<string, TrackingConnection[]>();
  adAccounts: AdAccount[] = [];
  clones: CloneRecord[] = [];
  /** Keys revoked while the server runs (control endpoint), as if their owner revoked them. */
  revokedKeys = new Set<string>();
  private cloneCounter = 0;

  constructor(private readonly seed: number) {
    this.reset();
  }

  reset(): void {
    this.pixels = initialPixels(this.seed);
    // The odd store's account is only reachable with its key, which only odd mode accepts.
    this.adAccounts = [...initialAdAccounts(this.seed), ...oddAdAccounts()];
    this.clones = [];
    this.cloneCounter = 0;
    this.revokedKeys = new Set();
  }

  pixelsOf(storeUrl: string): TrackingConnection[] {
    return this.pixels.get(storeUrl) ?? [];
  }

  /** Returns the remaining connections, or null when the store has no such pixel. */
  deletePixel(storeUrl: string, pixelId: string): TrackingConnection[] | null {
    const list = this.pixelsOf(storeUrl);
    const remaining = list.filter((pixel) => pixel.id !== pixelId);
    if (remaining.length === list.length) return null;
    this.pixels.set(storeUrl, remaining);
    return remaining;
  }

  adAccountsOf(storeUrl: string): AdAccount[] {
    return this.adAccounts.filter((account) => account.storeUrl === storeUrl);
  }

  /** IDs of cloned groups start with 7 (seeded ones with 5 or 6), so they never collide. */
  nextCampaignGroupId(): string {
    this.cloneCounter += 1;
    return `7${String(this.cloneCounter).padStart(8, "0")}`;
  }

  addCampaignGroup(account: AdAccount, group: CampaignGroup, record: CloneRecord): void {
    account.campaignGroups.push(group);
    this.clones.push(record);
  }

  /** `odd`: the odd store's account is shown too; otherwise the state reads as the demo's without it. */
  snapshot(odd = false): {
    pixels: Record<string, TrackingConnection[]>;
    campaignGroups: Record<string, CampaignGroup[]>;
    clones: CloneRecord[];
  } {
    const accounts = odd ? this.adAccounts : this.adAccounts.filter((account) => account.storeUrl !== ODD_STORE.url);
    return {
      pixels: Object.fromEntries(this.pixels),
      campaignGroups: Object.fromEntries(accounts.map((account) => [account.id, account.campaignGroups])),
      clones: this.clones,
    };
  }
}
