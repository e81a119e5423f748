import "server-only";
import { csvLine } from "@/server/metrics/csv";
import { activityQuerySchema, type ActivityFilters, type ActivityResponse, type AuditEntry } from "@/shared/schemas/activity";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { getAudit, InvalidCursor, listAudit, type AuditFilters } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { route } from "@/server/http/pipeline";
import { storeItems, storesToRead } from "@/server/http/scope";
import type { UpstreamClient } from "@/server/upstream/client";
import { dayBoundsIn } from "@/shared/activity-filters";
import { storeProfileSchema } from "@/shared/schemas/store";
import { interpretTimeZone } from "@/shared/store-locale";

const PAGE_SIZE = 50;
/** The export stops here: a history longer than this is narrowed with the filters first. */
const EXPORT_LIMIT = 10_000;

/** Each store's zone, as its entries are shown (UTC when the upstream cannot tell it). */
async function storeZones(upstream: UpstreamClient, storeUrls: readonly string[]): Promise<Map<string, string>> {
  const zones = await Promise.all(
    storeUrls.map((storeUrl) =>
      upstream
        .json("store-profile", storeProfileSchema, { params: { storeUrl } })
        .then(({ data }) => interpretTimeZone(data.timezone).zone)
        .catch(() => "UTC"),
    ),
  );
  return new Map(storeUrls.map((storeUrl, index) => [storeUrl, zones[index]!]));
}

/** The filters for the store; dates are days in each store's own zone, the last day included. */
async function storeFilters(upstream: UpstreamClient, storeUrls: readonly string[], filters: ActivityFilters): Promise<AuditFilters> {
  const zones = filters.from || filters.to ? await storeZones(upstream, storeUrls) : null;
  return {
    action: filters.action,
    outcome: filters.outcome,
    userEmail: filters.person,
    storeBounds: zones ? storeUrls.map((storeUrl) => ({ storeUrl, ...dayBoundsIn(filters, zones.get(storeUrl)!) })) : undefined,
  };
}

async function page(storeUrls: readonly string[], filters: AuditFilters, before: string | undefined, limit: number) {
  try {
    return await listAudit(await database(), { storeUrls, filters }, { limit, before });
  } catch (error) {
    if (error instanceof InvalidCursor) throw new DashboardError(400, "bad_request", "This page of the Activity list does not exist.");
    throw error;
  }
}

/** GET /api/activity: one page of the guarded actions in the reach's stores, newest first, filtered. */
export const activity = route(
  { methods: ["GET"], path: "/api/activity", scope: "reach", query: activityQuerySchema },
  async ({ scope, requestId, query, upstream }) => {
    const { before, entry, ...filters } = query;
    const storeUrls = storesToRead(scope, filters.store);
    const stores = storeItems(scope);
    if (entry) {
      const found = await getAudit(await database(), storeUrls, entry);
      if (!found) throw new DashboardError(404, "not_found", "No such entry among the stores this key can reach.");
      return jsonResponse({ stores, entries: [found], nextCursor: null } satisfies ActivityResponse, { requestId });
    }
    const found = await page(storeUrls, await storeFilters(upstream, storeUrls, filters), before, PAGE_SIZE);
    return jsonResponse({ stores, ...found } satisfies ActivityResponse, { requestId });
  },
);

const COLUMNS = [
  "time_utc",
  "action",
  "outcome",
  "status",
  "store",
  "person",
  "connection_id",
  "connection_name",
  "channel",
  "ad_account_id",
  "source_campaign_group_id",
  "source_campaign_group_name",
  "new_campaign_group_name",
  "new_campaign_group_id",
  "dashboard_request_id",
  "upstream_request_id",
  "entry_id",
];

function entryLine(entry: AuditEntry): string {
  const { target } = entry;
  return csvLine([
    entry.at,
    entry.action,
    entry.outcome,
    entry.status,
    entry.storeUrl,
    entry.userEmail,
    target.connectionId,
    target.connectionName,
    target.channel,
    target.adAccountId,
    target.sourceCampaignGroupId,
    target.sourceCampaignGroupName,
    target.newGroupName,
    target.newGroupId,
    entry.requestId,
    entry.upstreamRequestId,
    entry.id,
  ]);
}

/** GET /api/activity/export: the filtered list as CSV, the filters written in its first lines. */
export const activityExport = route(
  { methods: ["GET"], path: "/api/activity/export", scope: "reach", query: activityQuerySchema },
  async ({ scope, requestId, query, upstream }) => {
    const storeUrls = storesToRead(scope, query.store);
    const filters = { ...query, before: undefined, entry: undefined };
    const described = Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${value}`);
    const lines = [
      csvLine(["# Activity of stores", ...storeUrls, "exported", new Date().toISOString()]),
      csvLine(["# Filters", ...(described.length > 0 ? described : ["none"])]),
      csvLine(COLUMNS),
    ];
    const bounded = await storeFilters(upstream, storeUrls, filters);
    let cursor: string | undefined;
    let count = 0;
    while (count < EXPORT_LIMIT) {
      const next = await page(storeUrls, bounded, cursor, Math.min(500, EXPORT_LIMIT - count));
      for (const entry of next.entries) lines.push(entryLine(entry));
      count += next.entries.length;
      if (!next.nextCursor) break;
      cursor = next.nextCursor;
    }
    if (count >= EXPORT_LIMIT) lines.push(csvLine([`# Stopped at ${EXPORT_LIMIT} entries: narrow the filters to export the rest.`]));
    return new Response(lines.join(""), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="activity-${new Date().toISOString().slice(0, 10)}.csv"`,
        "cache-control": "no-store",
        "x-request-id": requestId,
      },
    });
  },
);
