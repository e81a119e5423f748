import "server-only";
import { appendChange } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { createSchedule, listPortfolioSchedules } from "@/server/digests/store";
import { changeBy } from "@/server/grants/ownership";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { grantsInForce } from "@/server/portfolio/digest";
import { parsePortfolioState } from "@/shared/portfolio";
import { LIMITS } from "@/shared/limits";
import { newPortfolioDigestSchema } from "@/shared/schemas/digest";
import { storeProfileSchema } from "@/shared/schemas/store";
import { item, newSchedule } from "./digests";

const COLLECTION = "/api/portfolio/digests";

/**
 * GET /api/portfolio/digests: the digests of several stores whose every store is in the reach,
 * and the stores of the reach the signed-in person has granted (the form says which are left out).
 */
export const listPortfolioDigests = route({ methods: ["GET"], path: COLLECTION, scope: "reach" }, async ({ scope, session, requestId }) => {
  const db = await database();
  const reach = new Set(scope.stores.map((store) => store.url));
  const schedules = (await listPortfolioSchedules(db, [...reach])).filter((schedule) =>
    schedule.portfolio!.stores.every((store) => reach.has(store.url)),
  );
  const now = new Date();
  const digests = [];
  for (const schedule of schedules) {
    const grants = await grantsInForce(db, schedule.portfolio!.stores, schedule.grantOwnerEmail, now);
    digests.push(
      item(
        schedule,
        new Set(),
        [...grants].filter(([, grant]) => !grant).map(([url]) => url),
      ),
    );
  }
  const mine = await grantsInForce(db, scope.stores, session.data.user.email, now);
  return jsonResponse({ digests, granted: [...mine].filter(([, grant]) => grant).map(([url]) => url) }, { requestId });
});

/**
 * POST /api/portfolio/digests: the All stores table of the chosen stores by e-mail. It is kept
 * under the first chosen store the signed-in person has granted, and reads each store through
 * their grant of it when it is sent.
 */
export const createPortfolioDigest = route(
  { methods: ["POST"], path: COLLECTION, scope: "reach", body: { schema: newPortfolioDigestSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, key, body, upstreamOf, requestId, log }) => {
    const chosen = [...new Set(body.stores)].map((url) => {
      const store = scope.stores.find((candidate) => candidate.url === url);
      if (!store) throw new DashboardError(404, "not_found", `Store ${url} was not found among the stores your keys reach.`);
      return store;
    });
    const { problems } = parsePortfolioState(new URLSearchParams(body.search));
    if (problems.length > 0) throw new DashboardError(400, "bad_request", `The range is not valid: ${problems.join("; ")}.`);
    const db = await database();
    const now = new Date();
    const grants = await grantsInForce(db, chosen, session.data.user.email, now);
    const home = chosen.find((store) => grants.get(store.url));
    if (!home) throw new DashboardError(409, "grant_needed", "Grant read access on the Digests page of at least one chosen store first.");
    const profile = await upstreamOf(home.url).json("store-profile", storeProfileSchema, { params: { storeUrl: home.url } });
    log.upstreamRequestId = profile.upstreamRequestId;
    const schedule = await createSchedule(
      db,
      {
        organizationId: home.organizationId,
        storeUrl: home.url,
        savedViewId: null,
        portfolio: { stores: chosen.map(({ url, organizationId }) => ({ url, organizationId })), search: body.search },
        grantId: grants.get(home.url)!,
        ...newSchedule(body, profile.data.timezone, session.data.user.email),
      },
      now,
    );
    // Counted in the transaction that inserts (server/db/store-cap.ts), with the home store's other digests.
    if (!schedule)
      throw new DashboardError(409, "limit_reached", `${home.url} holds ${LIMITS.digestsPerStore} scheduled digests. Delete one first.`);
    await appendChange(
      db,
      changeBy({ ...scope, organizationId: home.organizationId, store: home }, session, requestId, key),
      "digest.create",
      {
        digestId: schedule.id,
        viewName: `All stores (${chosen.length} stores)`,
        change: `${schedule.recipients.length} recipient${schedule.recipients.length === 1 ? "" : "s"}`,
      },
    );
    const withoutGrant = chosen.filter((store) => !grants.get(store.url)).map((store) => store.url);
    return jsonResponse(item(schedule, new Set(), withoutGrant), { status: 201, requestId });
  },
);
