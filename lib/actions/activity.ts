import "server-only";
import { z } from "zod";
import { auditActions, auditOutcomes, type ActivityResponse } from "@/lib/schemas/activity";
import { jsonResponse } from "@/lib/server/http";
import { handleWithSession } from "@/lib/server/route";
import { InvalidCursor, listAudit } from "@/lib/store/audit";
import { database, DatabaseUnavailable } from "@/lib/store/database";

const PAGE_SIZE = 50;

const activityQuerySchema = z.strictObject({
  before: z.string().max(200).optional(),
  action: z.enum(auditActions).optional(),
  outcome: z.enum(auditOutcomes).optional(),
});

/** GET /api/activity: one page of the signed-in key's organization's guarded actions, newest first. */
export function activityResponse(request: Request): Promise<Response> {
  return handleWithSession(request, "GET /api/activity", activityQuerySchema, async ({ session, requestId, query }) => {
    // A session without an organization can be matched to no one's history: it sees none.
    if (!session.organizationId) return jsonResponse({ entries: [], nextCursor: null } satisfies ActivityResponse, { requestId });
    try {
      const page = await listAudit(
        await database(),
        { organizationId: session.organizationId, filters: { action: query.action, outcome: query.outcome } },
        { limit: PAGE_SIZE, before: query.before },
      );
      return jsonResponse(page satisfies ActivityResponse, { requestId });
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable || error instanceof InvalidCursor)) throw error;
      return jsonResponse({ error: error.message, code: error.code, requestId, retryAfter: null }, { status: error.status, requestId });
    }
  });
}
