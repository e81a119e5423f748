import type { ReactNode } from "react";
import { formatCountry, formatDateTime, formatNumber, formatRelative } from "@/shared/format";
import { fieldLabel, statusWords } from "@/shared/words";
import { Badge, DescriptionList } from "@/components/ui/card";
import { Breakable } from "@/components/ui/breakable";
import { GenericValue } from "@/components/ui/generic-value";

/** A catalog last synchronized longer ago than this is flagged: its products may be out of date on the platform. */
const STALE_SYNC_MS = 7 * 86_400_000;

/** When a catalog last synchronized, if that is more than a week before `now` (else null). */
export function staleSync(catalog: Catalog, now: number = Date.now()): string | null {
  const synced = typeof catalog.lastSyncedAt === "string" ? Date.parse(catalog.lastSyncedAt) : Number.NaN;
  return !Number.isNaN(synced) && now - synced > STALE_SYNC_MS ? formatRelative(synced, now) : null;
}

/** Platforms whose names are not plain words. */
const PROVIDERS: Record<string, string> = {
  google_merchant_center: "Google Merchant Center",
  meta_catalog: "Meta catalog",
  tiktok_catalog: "TikTok catalog",
};
const STATUS_TONES: Record<string, "good" | "warn" | "bad"> = { active: "good", paused: "warn", error: "bad", failed: "bad" };

/** The tone of a catalog's status, the same on its card and in the store's health summary. */
export const catalogStatusTone = (status: string | undefined) => (status ? STATUS_TONES[status.toLowerCase()] : undefined);

type Catalog = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" && value.trim() ? value : undefined);

/** A catalog's platform as people write it ("Google Merchant Center"), from its provider field. */
export function catalogName(catalog: Catalog): string {
  const provider = text(catalog.provider);
  return provider ? (PROVIDERS[provider] ?? fieldLabel(provider)) : "Catalog connection";
}

/**
 * The fields the dashboard knows how to read, each taken only when it has the expected type
 * (the contract gives no shape): anything else stays under "Other details".
 */
function knownFields(catalog: Catalog, timeZone: string | undefined) {
  const shown: { key: string; label: string; value: ReactNode }[] = [];
  if (typeof catalog.productCount === "number")
    shown.push({ key: "productCount", label: "Products", value: formatNumber(catalog.productCount) });
  const synced = text(catalog.lastSyncedAt);
  if (synced && !Number.isNaN(Date.parse(synced))) {
    shown.push({
      key: "lastSyncedAt",
      label: "Last synced",
      value: (
        <>
          <time dateTime={synced}>
            {formatDateTime(synced, timeZone)} ({formatRelative(synced)})
          </time>{" "}
          {staleSync(catalog) && <Badge tone="warn">Over a week old</Badge>}
        </>
      ),
    });
  }
  const feed = text(catalog.feedUrl);
  if (feed && /^https?:\/\//i.test(feed)) {
    shown.push({
      key: "feedUrl",
      label: "Feed",
      value: (
        <a href={feed} rel="noreferrer noopener" target="_blank" className="text-indigo-700 underline dark:text-indigo-300">
          <Breakable text={feed} />
        </a>
      ),
    });
  }
  const country = text(catalog.country);
  if (country) shown.push({ key: "country", label: "Country", value: formatCountry(country) });
  const currency = text(catalog.currency);
  if (currency) shown.push({ key: "currency", label: "Currency", value: currency });
  return shown;
}

/** One catalog connection in words: platform, status badge with its error, known fields labelled, the rest listed plainly. */
export function CatalogCard({ catalog, timeZone }: { catalog: Catalog; timeZone?: string }) {
  const status = text(catalog.status);
  const error = text(catalog.errorMessage);
  const known = knownFields(catalog, timeZone);
  const used = new Set(["provider", "status", "errorMessage", ...known.map((field) => field.key)]);
  const other = Object.fromEntries(Object.entries(catalog).filter(([key]) => !used.has(key)));
  return (
    <article className="space-y-3" data-testid="catalog-card">
      <header className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{catalogName(catalog)}</h3>
        {status && <Badge tone={catalogStatusTone(status) ?? "neutral"}>{statusWords(status)}</Badge>}
      </header>
      {error && (
        <p className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:bg-rose-950/40 dark:text-rose-100">
          <span className="font-medium">The last sync failed: </span>
          {error}
        </p>
      )}
      {known.length > 0 && <DescriptionList items={known} />}
      {Object.keys(other).length > 0 && (
        <div>
          <h4 className="mb-1 text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">Other details</h4>
          <GenericValue value={other} timeZone={timeZone} />
        </div>
      )}
    </article>
  );
}
