import "server-only";
import { z } from "zod";
import { database } from "@/server/db/database";
import { settings } from "@/server/config/settings";
import { jsonResponse } from "@/server/http/responses";
import { route } from "@/server/http/pipeline";
import { restatements } from "@/server/rollups/restatements";
import { isoDateSchema } from "@/shared/schemas/common";
import { dateRangeRefinement } from "@/shared/schemas/product-metrics";

const querySchema = z
  .strictObject({ startDate: isoDateSchema.optional(), endDate: isoDateSchema.optional() })
  .superRefine((query, context) => {
    if (Boolean(query.startDate) !== Boolean(query.endDate))
      context.addIssue({ code: "custom", path: ["startDate"], message: "startDate and endDate go together" });
    dateRangeRefinement(query, context);
  });

/** GET …/data-changes[?startDate&endDate]: the store's restated days (moved when a closed day was re-read), newest first. */
export const dataChanges = route(
  { methods: ["GET"], path: "/api/stores/[storeUrl]/data-changes", scope: "store", query: querySchema },
  async ({ scope, query, requestId }) => {
    const range = query.startDate && query.endDate ? { startDate: query.startDate, endDate: query.endDate } : undefined;
    const changes = await restatements(await database(), scope.store!.url, range);
    return jsonResponse({ changes, watching: settings().rollups.enabled }, { requestId });
  },
);
