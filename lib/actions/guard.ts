import "server-only";
import type { AuditAction, AuditTarget } from "@/lib/schemas/activity";
import { cloneCampaignRequestSchema } from "@/lib/schemas/campaign-clone";
import { jsonResponse } from "@/lib/server/http";
import { sessionSecrets } from "@/lib/session/secrets";
import type { SessionData } from "@/lib/session/session";
import { DatabaseUnavailable } from "@/lib/store/database";
import { keyFingerprint } from "@/lib/store/sessions";
import { type Endpoint, upstreamPath } from "@/lib/upstream/endpoints";
import { IDEMPOTENCY_HEADER, runAction } from "./engine";
import { ActionError, OutcomeUnknown } from "./errors";

export const REPLAYED_HEADER = "idempotent-replayed";

export interface GuardedActionCall {
  action: AuditAction;
  session: SessionData;
  requestId: string;
  endpoint: Endpoint;
  params: Partial<Record<"storeUrl" | "pixelId", string>>;
  /** The body, already validated by the endpoint's schema. */
  body: unknown;
  organizationId?: string;
  /** Runs the upstream call once; its answer is classified by lib/actions/outcome.ts. */
  send: () => Promise<Response>;
}

/** The IDs the request itself names; the names come from the caller once it looks them up. */
function targetOf(call: GuardedActionCall): AuditTarget {
  if (call.action === "tracking-connection.remove") return { connectionId: call.params.pixelId ?? "" };
  const body = cloneCampaignRequestSchema.safeParse(call.body);
  if (!body.success) return {};
  const { adAccountId, payload } = body.data;
  return { adAccountId, sourceCampaignGroupId: payload.sourceCampaignGroupId, newGroupName: payload.name };
}

function errorAnswer(status: number, code: string, message: string, requestId: string, details?: unknown): Response {
  return jsonResponse(
    { error: message, code, requestId, retryAfter: null, ...(details === undefined ? {} : { details }) },
    { status, requestId },
  );
}

/**
 * The proxy's entry to the action engine (lib/actions/engine.ts): one guarded action as an
 * HTTP answer. Replays carry `idempotent-replayed: true`; refusals and lost answers are
 * Error-shaped with their code. Same origin, session and body are checked by the caller.
 */
export async function runGuardedAction(request: Request, call: GuardedActionCall): Promise<Response> {
  const { requestId, session } = call;
  const secret = Object.values(sessionSecrets().sealing)[0]!;
  try {
    const result = await runAction({
      action: call.action,
      idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER),
      keyFingerprint: keyFingerprint(session.apiKey, secret),
      session: { id: null, email: session.user.email, organizationId: session.organizationId ?? null },
      organizationId: call.organizationId ?? null,
      storeUrl: call.params.storeUrl ?? "",
      fingerprint: { method: call.endpoint.method, path: upstreamPath(call.endpoint, call.params), body: call.body },
      target: targetOf(call),
      requestId,
      send: call.send,
    });
    const headers = new Headers(result.answer.headers);
    headers.set("cache-control", "no-store");
    if (result.kind === "replayed") headers.set(REPLAYED_HEADER, "true");
    return new Response(result.answer.body, { status: result.answer.status, headers });
  } catch (error) {
    if (error instanceof OutcomeUnknown) {
      return errorAnswer(error.status, error.code, error.message, requestId, {
        auditId: error.auditId,
        target: error.target,
        retrySafe: error.retrySafe,
      });
    }
    if (error instanceof ActionError) return errorAnswer(error.status, error.code, error.message, requestId);
    if (error instanceof DatabaseUnavailable) return errorAnswer(503, error.code, error.message, requestId);
    throw error;
  }
}
