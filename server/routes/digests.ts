import "server-only";
import { appendChange } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { listViews } from "@/server/saved-views/repository";
import { enqueueDigest } from "@/server/digests/jobs";
import { takeSendNow } from "@/server/digests/send-now";
import { createSchedule, deleteSchedule, listSchedules, scheduleById, updateSchedule, type DigestSchedule } from "@/server/digests/store";
import { changeBy, notYours, samePerson } from "@/server/grants/ownership";
import { listGrants } from "@/server/grants/store";
import { ACTION_BODY_LIMIT, route, type RawParams } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { digestChangeSchema, newDigestSchema, type DigestChange, type DigestItem } from "@/shared/schemas/digest";
import { storeProfileSchema } from "@/shared/schemas/store";
import { LIMITS } from "@/shared/limits";
import { interpretTimeZone } from "@/shared/store-locale";
import { digestSummary, portfolioSummary, summaryLine } from "@/shared/digest-summary";

const COLLECTION = "/api/stores/[storeUrl]/digests";

function digestPath(raw: RawParams): { storeUrl: string; id: string } {
  const { storeUrl, id } = raw;
  if (typeof storeUrl !== "string" || typeof id !== "string" || !/^digest_[0-9a-f-]{36}$/.test(id)) {
    throw new DashboardError(404, "not_found", "No such digest.");
  }
  return { storeUrl, id };
}

/** A new digest's cadence, time and recipients as its form gave them, on the store's clock (`timezone`, from its profile). */
export function newSchedule(form: DigestChange, timezone: string, createdByEmail: string) {
  return {
    cadence: form.cadence,
    weekday: form.weekday,
    localTime: form.localTime,
    timeZone: interpretTimeZone(timezone).zone,
    recipients: form.recipients,
    createdByEmail,
  };
}

/** A digest as the pages list it; a digest of several stores names its stores and those without a grant in force. */
export function item(schedule: DigestSchedule, activeGrants: Set<string>, withoutGrant: string[] = []): DigestItem {
  const stores = schedule.portfolio?.stores.map((store) => store.url);
  return {
    id: schedule.id,
    savedViewId: schedule.savedViewId,
    viewName: schedule.viewName,
    viewDeleted: schedule.viewDeleted,
    cadence: schedule.cadence,
    weekday: schedule.weekday ?? null,
    localTime: schedule.localTime,
    timeZone: schedule.timeZone,
    nextRunAt: new Date(schedule.nextRunAt).toISOString(),
    recipients: schedule.recipients,
    createdByEmail: schedule.createdByEmail,
    shows: schedule.portfolio
      ? `Every chosen store's whole revenue; ${portfolioSummary(schedule.search).range}`
      : digestSummary(schedule.search, schedule.timeZone, new Date()).filters,
    grantActive: stores ? withoutGrant.length < stores.length : activeGrants.has(schedule.grantId),
    ...(stores ? { portfolio: { storeUrl: schedule.storeUrl, stores, withoutGrant } } : {}),
  };
}

async function activeGrantIds(organizationId: string, storeUrl: string): Promise<Set<string>> {
  const grants = await listGrants(await database(), organizationId, storeUrl);
  return new Set(grants.filter((grant) => !grant.endedAt && grant.expiresAt > new Date()).map((grant) => grant.id));
}

/** GET /api/stores/{storeUrl}/digests */
export const listDigests = route({ methods: ["GET"], path: COLLECTION, scope: "store" }, async ({ scope, requestId }) => {
  const [schedules, active] = await Promise.all([
    listSchedules(await database(), scope.organizationId!, scope.store!.url),
    activeGrantIds(scope.organizationId!, scope.store!.url),
  ]);
  return jsonResponse({ digests: schedules.map((schedule) => item(schedule, active)) }, { requestId });
});

/** POST /api/stores/{storeUrl}/digests: schedules a saved view, read through the signed-in key's grant for the store. */
export const createDigest = route(
  { methods: ["POST"], path: COLLECTION, scope: "store", body: { schema: newDigestSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, key, body, upstream, requestId, log }) => {
    const db = await database();
    const organizationId = scope.organizationId!;
    const storeUrl = scope.store!.url;
    const views = await listViews(db, organizationId, storeUrl);
    if (!views.some((view) => view.id === body.savedViewId))
      throw new DashboardError(404, "not_found", "This saved view no longer exists.");
    const grant = (await listGrants(db, organizationId, storeUrl)).find(
      (candidate) => candidate.keyFingerprint === key.fingerprint && !candidate.endedAt && candidate.expiresAt > new Date(),
    );
    if (!grant) throw new DashboardError(409, "grant_needed");
    const profile = await upstream.json("store-profile", storeProfileSchema, { params: { storeUrl } });
    log.upstreamRequestId = profile.upstreamRequestId;
    const schedule = await createSchedule(
      db,
      {
        organizationId,
        storeUrl,
        savedViewId: body.savedViewId,
        grantId: grant.id,
        ...newSchedule(body, profile.data.timezone, session.data.user.email),
      },
      new Date(),
    );
    if (!schedule)
      throw new DashboardError(
        409,
        "limit_reached",
        `A store holds at most ${LIMITS.digestsPerStore} scheduled digests. Delete one before scheduling another.`,
      );
    await appendChange(db, changeBy(scope, session, requestId, key), "digest.create", {
      digestId: schedule.id,
      viewName: schedule.viewName,
      change: `${schedule.recipients.length} recipient${schedule.recipients.length === 1 ? "" : "s"}`,
    });
    return jsonResponse(item(schedule, new Set([grant.id])), { status: 201, requestId });
  },
);

/** The words Activity keeps for a digest's change: what moved from what to what. */
function changeWords(before: DigestSchedule, after: DigestSchedule): string {
  const when = (schedule: DigestSchedule) =>
    `${schedule.cadence}${schedule.cadence === "weekly" ? ` on day ${schedule.weekday}` : ""} at ${schedule.localTime}`;
  const emails = (schedule: DigestSchedule) => schedule.recipients.map((recipient) => recipient.email);
  const added = emails(after).filter((email) => !emails(before).includes(email));
  const removed = emails(before).filter((email) => !emails(after).includes(email));
  const parts = [
    ...(when(before) === when(after) ? [] : [`${when(before)} → ${when(after)}`]),
    ...(added.length > 0 ? [`added ${added.join(", ")}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "nothing changed";
}

/**
 * PATCH /api/stores/{storeUrl}/digests/{id}: its cadence, time and recipients, by the owner of
 * the grant it reads through only (as a deletion), recorded in Activity. A digest of another
 * store, or of no store of this key, is not found.
 */
export const changeDigest = route(
  {
    methods: ["PATCH"],
    path: `${COLLECTION}/[id]`,
    scope: "store",
    params: digestPath,
    body: { schema: digestChangeSchema, maxBytes: ACTION_BODY_LIMIT },
  },
  async ({ scope, session, key, params, body, requestId }) => {
    const db = await database();
    const where = { organizationId: scope.organizationId!, storeUrl: scope.store!.url, id: params.id };
    const before = await scheduleById(db, params.id);
    if (!before || before.organizationId !== where.organizationId || before.storeUrl !== where.storeUrl) {
      throw new DashboardError(404, "not_found", "No such digest.");
    }
    if (!samePerson(before.grantOwnerEmail, session.data.user.email)) throw notYours(before.grantOwnerEmail, "change this digest");
    const after = await db.transaction(async (tx) => {
      if (!(await updateSchedule(tx, where, body, new Date()))) throw new DashboardError(404, "not_found", "No such digest.");
      const changed = (await scheduleById(tx, params.id))!;
      await appendChange(tx, changeBy(scope, session, requestId, key), "digest.change", {
        digestId: params.id,
        viewName: changed.viewName,
        change: changeWords(before, changed),
      });
      return changed;
    });
    return jsonResponse(item(after, await activeGrantIds(where.organizationId, where.storeUrl)), { requestId });
  },
);

/** DELETE /api/stores/{storeUrl}/digests/{id}: the owner of the grant it reads through only. */
export const deleteDigest = route(
  { methods: ["DELETE"], path: `${COLLECTION}/[id]`, scope: "store", params: digestPath },
  async ({ scope, session, key, params, requestId }) => {
    const db = await database();
    const schedule = await scheduleById(db, params.id);
    if (schedule && schedule.organizationId === scope.organizationId && schedule.storeUrl === scope.store!.url) {
      if (!samePerson(schedule.grantOwnerEmail, session.data.user.email)) throw notYours(schedule.grantOwnerEmail, "delete this digest");
    }
    await db.transaction(async (tx) => {
      if (!(await deleteSchedule(tx, scope.organizationId!, scope.store!.url, params.id))) {
        throw new DashboardError(404, "not_found", "No such digest.");
      }
      await appendChange(tx, changeBy(scope, session, requestId, key), "digest.delete", {
        digestId: params.id,
        viewName: schedule?.viewName,
      });
    });
    return jsonResponse({ deleted: true }, { requestId });
  },
);

/**
 * POST /api/stores/{storeUrl}/digests/{id}/send: "Send now", as the next free background run,
 * within its limits (server/digests/send-now.ts): a refused press answers 429 with Retry-After.
 */
export const sendDigestNow = route(
  { methods: ["POST"], path: `${COLLECTION}/[id]/send`, scope: "store", params: digestPath },
  async ({ scope, session, key, params, requestId }) => {
    const schedule = await scheduleById(await database(), params.id);
    if (!schedule || schedule.organizationId !== scope.organizationId || schedule.storeUrl !== scope.store!.url) {
      throw new DashboardError(404, "not_found", "No such digest.");
    }
    const db = await database();
    const now = new Date();
    const { id } = await db.transaction(async (tx) => {
      const press = {
        organizationId: schedule.organizationId,
        storeUrl: schedule.storeUrl,
        scheduleId: schedule.id,
        person: session.data.user.email,
      };
      const refused = await takeSendNow(tx, press, now);
      if (refused) throw new DashboardError(429, "rate_limited", refused.message, { retryAfter: String(refused.waitSeconds) });
      await appendChange(tx, changeBy(scope, session, requestId, key), "digest.send-now", {
        digestId: schedule.id,
        viewName: schedule.viewName,
      });
      return enqueueDigest(schedule, `now-${now.toISOString()}`, tx);
    });
    return jsonResponse(
      {
        jobId: id,
        shows: schedule.portfolio ? portfolioSummary(schedule.search) : summaryLine(digestSummary(schedule.search, schedule.timeZone, now)),
      },
      { status: 202, requestId },
    );
  },
);
