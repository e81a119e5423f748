import "server-only";
import { database } from "@/server/db/database";
import { jsonResponse } from "@/server/http/responses";
import { route } from "@/server/http/pipeline";
import { rollupStatus } from "@/server/rollups/status";

/**
 * GET /api/stores/{storeUrl}/rollups: how much of the store the day rollups keep
 * (`{ enabled, filling, percent, heldFrom, heldTo, asOf }`), to a key that reaches the store.
 */
export const rollups = route(
  { methods: ["GET"], path: "/api/stores/[storeUrl]/rollups", scope: "store" },
  async ({ scope, upstream, requestId }) => jsonResponse(await rollupStatus(await database(), upstream, scope.store!.url), { requestId }),
);
