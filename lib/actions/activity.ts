import "server-only";
import { z } from "zod";
import type { ActivityResponse } from "@/lib/schemas/activity";
import { jsonResponse } from "@/lib/server/http";
import { handleWithSession } from "@/lib/server/route";
import { auditLog } from "./audit";

const ACTIVITY_LIMIT = 200;

/** GET /api/activity: the guarded actions of the signed-in key's organization, newest first. */
export function activityResponse(request: Request): Promise<Response> {
  return handleWithSession(request, "GET /api/activity", z.strictObject({}), async ({ session, requestId }) => {
    // A session without an organization can be matched to no one's history: it sees none.
    const entries = session.organizationId ? await auditLog().list(session.organizationId, ACTIVITY_LIMIT) : [];
    return jsonResponse({ entries } satisfies ActivityResponse, { requestId });
  });
}
