import "server-only";
import { IDEMPOTENCY_HEADER, runAction } from "@/lib/actions/engine";
import type { AuditAction, AuditTarget } from "@/lib/schemas/activity";
import { cloneCampaignRequestSchema } from "@/lib/schemas/campaign-clone";
import { enrichResponseSchema } from "@/lib/schemas/enrich";
import { trackingConnectionListSchema } from "@/lib/schemas/tracking-connection";
import type { ActiveSession } from "@/lib/session/active";
import { callUpstreamJson, type UpstreamCall } from "@/lib/upstream/client";
import { endpointById, upstreamPath } from "@/lib/upstream/endpoints";

const REPLAYED_HEADER = "idempotent-replayed";
const AUDIT_ID_HEADER = "x-audit-id";

/** Lookups for the audit log run briefly: a slow one costs the action nothing but a name. */
const LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The names the audit log keeps beside the IDs, as they are now: the connection's name and
 * channel, or the source campaign group's name. A lookup that fails leaves the IDs alone.
 */
async function targetOf(action: AuditAction, call: UpstreamCall): Promise<AuditTarget> {
  const signal = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const lookup = { apiKey: call.apiKey, organizationId: call.organizationId, requestId: call.requestId, signal };
  const storeUrl = call.params?.storeUrl ?? "";
  if (action === "tracking-connection.remove") {
    const connectionId = call.params?.pixelId ?? "";
    try {
      const { data } = await callUpstreamJson(
        { ...lookup, endpoint: endpointById("pixels-list"), params: { storeUrl } },
        trackingConnectionListSchema,
      );
      const found = data.pixels.find((connection) => connection.id === connectionId);
      return { connectionId, ...(found ? { connectionName: found.name, channel: found.channel } : {}) };
    } catch {
      return { connectionId };
    }
  }
  const body = cloneCampaignRequestSchema.safeParse(call.body);
  if (!body.success) return {};
  const { adAccountId, payload } = body.data;
  const target: AuditTarget = { adAccountId, sourceCampaignGroupId: payload.sourceCampaignGroupId, newGroupName: payload.name };
  try {
    const { data } = await callUpstreamJson(
      {
        ...lookup,
        endpoint: endpointById("enrich"),
        params: { storeUrl },
        body: { channel: "linkedin", assetIds: [payload.sourceCampaignGroupId] },
      },
      enrichResponseSchema,
    );
    const source = data.assets.find((asset) => asset.assetId === payload.sourceCampaignGroupId);
    return source ? { ...target, sourceCampaignGroupName: source.assetName } : target;
  } catch {
    return target;
  }
}

/**
 * One guarded action through the action engine (lib/actions/engine.ts): at most one upstream
 * call per Idempotency-Key, its outcome and audit entry settled together. The answer is the
 * upstream's (or its replay, marked `idempotent-replayed: true`), with the audit entry's id.
 */
export async function runGuardedAction(
  request: Request,
  action: AuditAction,
  session: ActiveSession,
  call: UpstreamCall,
  send: () => Promise<Response>,
): Promise<Response> {
  const result = await runAction({
    action,
    idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER),
    keyFingerprint: session.keyFingerprint,
    session: { id: session.id, email: session.data.user.email, organizationId: session.data.organizationId ?? null },
    organizationId: call.organizationId ?? null,
    storeUrl: call.params?.storeUrl ?? "",
    fingerprint: { method: call.endpoint.method, path: upstreamPath(call.endpoint, call.params ?? {}), body: call.body },
    target: await targetOf(action, call),
    requestId: call.requestId,
    send,
  });
  const headers = new Headers(result.answer.headers);
  headers.set("cache-control", "no-store");
  if (result.auditId) headers.set(AUDIT_ID_HEADER, result.auditId);
  if (result.kind === "replayed") headers.set(REPLAYED_HEADER, "true");
  return new Response(result.answer.body, { status: result.answer.status, headers });
}
