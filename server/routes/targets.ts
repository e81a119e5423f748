import "server-only";
import { z } from "zod";
import { database } from "@/server/db/database";
import { revenueTargets, setRevenueTarget } from "@/server/notes/targets";
import { jsonResponse } from "@/server/http/responses";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { monthSchema, newRevenueTargetSchema } from "@/shared/schemas/target";

const PATH = "/api/stores/[storeUrl]/targets";

/** At most this many months in one read: a chart's year and a little more. */
const MONTHS_LIMIT = 24;
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));

/**
 * GET /api/stores/{storeUrl}/targets?month=YYYY-MM[&to=YYYY-MM]: the month's targets (or those of
 * the months `month` to `to`, for a chart's range), month by month, the whole store's first.
 */
export const listTargets = route(
  {
    methods: ["GET"],
    path: PATH,
    scope: "store",
    query: z
      .strictObject({ month: monthSchema, to: monthSchema.optional() })
      .refine(({ month, to }) => to === undefined || (to >= month && monthIndex(to) - monthIndex(month) < MONTHS_LIMIT), {
        message: `to must be month or later, at most ${MONTHS_LIMIT} months in all`,
        path: ["to"],
      }),
  },
  async ({ scope, query, requestId }) => {
    const targets = await revenueTargets(
      await database(),
      { organizationId: scope.organizationId!, storeUrl: scope.store!.url },
      query.month,
      query.to,
    );
    return jsonResponse({ targets }, { requestId });
  },
);

/** PUT …/targets: sets a month's target (store or channel) in the store's currency, by anyone of the organization; who and when kept. */
export const putTarget = route(
  { methods: ["PUT"], path: PATH, scope: "store", body: { schema: newRevenueTargetSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ scope, session, body, requestId }) => {
    const target = await setRevenueTarget(
      await database(),
      { organizationId: scope.organizationId!, storeUrl: scope.store!.url },
      { ...body, currency: scope.store!.currency },
      session.data.user.email,
      new Date(),
    );
    return jsonResponse(target, { requestId });
  },
);
