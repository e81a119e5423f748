import "server-only";
import { auditLog } from "@/lib/actions/audit";
import type { ActivityResponse } from "@/lib/schemas/activity";
import { jsonResponse } from "@/lib/server/http";
import { route } from "./pipeline";

const ACTIVITY_LIMIT = 200;

/** GET /api/activity: the guarded actions of the signed-in key's organization, newest first. */
export const activity = route({ route: "GET /api/activity" }, async ({ session, requestId }) => {
  // A session without an organization can be matched to no one's history: it sees none.
  const organizationId = session.data.organizationId;
  const entries = organizationId ? await auditLog().list(organizationId, ACTIVITY_LIMIT) : [];
  return jsonResponse({ entries } satisfies ActivityResponse, { requestId });
});
