import "server-only";
import { cloneAttemptResponseSchema, cloneDuplicatesQuerySchema, newCloneAttemptSchema } from "@/shared/schemas/clone-attempt";
import { jsonResponse } from "@/server/http/responses";
import { dismissCloneAttempt, readCloneAttempt, recentIdenticalClones, saveCloneAttempt } from "@/server/actions/clone-attempts";
import { database } from "@/server/db/database";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";

const ATTEMPT = "/api/stores/[storeUrl]/clone-attempt";

async function attemptAnswer(sessionId: string, storeUrl: string, requestId: string, status = 200): Promise<Response> {
  const attempt = await readCloneAttempt(await database(), sessionId, storeUrl);
  return jsonResponse(cloneAttemptResponseSchema.parse({ attempt }), { status, requestId });
}

/** GET /api/stores/{storeUrl}/clone-attempt: the clone this session sent for the store, and where it stands. */
export const currentCloneAttempt = route({ methods: ["GET"], path: ATTEMPT, scope: "store" }, async ({ session, scope, requestId }) =>
  attemptAnswer(session.id, scope.store!.url, requestId),
);

/**
 * PUT /api/stores/{storeUrl}/clone-attempt: keeps what was reviewed and its Idempotency-Key,
 * before the clone is sent, so that a reload finds it.
 */
export const keepCloneAttempt = route(
  { methods: ["PUT"], path: ATTEMPT, scope: "store", body: { schema: newCloneAttemptSchema, maxBytes: ACTION_BODY_LIMIT } },
  async ({ session, scope, key, body, requestId }) => {
    await saveCloneAttempt(
      await database(),
      {
        sessionId: session.id,
        storeUrl: scope.store!.url,
        organizationId: scope.organizationId!,
        // The store's own key of the ring: the one its clone runs with, whose Idempotency-Keys it finds.
        keyFingerprint: key.fingerprint,
        idempotencyKey: body.idempotencyKey,
        request: body.request,
      },
      new Date(),
    );
    return attemptAnswer(session.id, scope.store!.url, requestId);
  },
);

/** DELETE /api/stores/{storeUrl}/clone-attempt: "Clone another": the page starts from the form again. */
export const dismissClone = route({ methods: ["DELETE"], path: ATTEMPT, scope: "store" }, async ({ session, scope, requestId }) => {
  await dismissCloneAttempt(await database(), session.id, scope.store!.url);
  return new Response(null, { status: 204, headers: { "x-request-id": requestId } });
});

/** GET /api/stores/{storeUrl}/clone-duplicates: the same clone made, or left unknown, in the organization in the last day. */
export const cloneDuplicates = route(
  { methods: ["GET"], path: "/api/stores/[storeUrl]/clone-duplicates", scope: "store", query: cloneDuplicatesQuerySchema },
  async ({ scope, query, requestId }) =>
    jsonResponse({ duplicates: await recentIdenticalClones(await database(), scope.store!.url, query, new Date()) }, { requestId }),
);
