import "server-only";
import { jsonResponse } from "@/lib/server/http";
import { isDraining } from "@/lib/server/lifecycle";
import { pingDatabase } from "@/lib/store/database";
import { route } from "./pipeline";

/**
 * GET /api/health, for load balancers: 200 while this instance can serve, 503 while it
 * drains for a stop or cannot reach its database.
 */
export const health = route({ route: "GET /api/health", session: false }, async ({ requestId }) => {
  const database = await pingDatabase().then(
    () => "ok" as const,
    () => "unavailable" as const,
  );
  const status = isDraining() ? "draining" : database === "ok" ? "ok" : "unavailable";
  return jsonResponse({ status, database }, { status: status === "ok" ? 200 : 503, requestId });
});
