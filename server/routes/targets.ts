import "server-only";
import { z } from "zod";
import { database } from "@/server/db/database";
import { revenueTargets, setRevenueTarget } from "@/server/notes/targets";
import { jsonResponse } from "@/server/http/responses";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { monthSchema, newRevenueTargetSchema } from "@/shared/schemas/target";

const PATH = "/api/stores/[storeUrl]/targets";

/** GET /api/stores/{storeUrl}/targets?month=YYYY-MM: the month's targets, the whole store's first. */
export const listTargets = route(
  { methods: ["GET"], path: PATH, scope: "store", query: z.strictObject({ month: monthSchema }) },
  async ({ scope, query, requestId }) => {
    const targets = await revenueTargets(
      await database(),
      { organizationId: scope.organizationId!, storeUrl: scope.store!.url },
      query.month,
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
