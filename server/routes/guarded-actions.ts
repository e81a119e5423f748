import "server-only";
import { IDEMPOTENCY_HEADER, runAction } from "@/server/actions/engine";
import type { AuditAction, AuditTarget } from "@/shared/schemas/activity";
import { cloneCampaignRequestSchema } from "@/shared/schemas/campaign-clone";
import { enrichResponseSchema } from "@/shared/schemas/enrich";
import { trackingConnectionListSchema } from "@/shared/schemas/tracking-connection";
import type { ActiveSession } from "@/server/auth/current-session";
import type { UpstreamClient, UpstreamRequest } from "@/server/upstream/client";
import { upstreamPath, type Endpoint } from "@/server/upstream/endpoints";
import type { VerifiedScope } from "@/server/http/scope";

const REPLAYED_HEADER = "idempotent-replayed";
const AUDIT_ID_HEADER = "x-audit-id";

/** Lookups for the audit log run briefly: a slow one costs the action nothing but a name. */
const LOOKUP_TIMEOUT_MS = 3_000;

/** The names the audit log keeps beside the IDs, as they are now; a failed lookup leaves the IDs alone. */
async function targetOf(action: AuditAction, upstream: UpstreamClient, call: UpstreamRequest): Promise<AuditTarget> {
  const lookup = upstream.with({ signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
  const storeUrl = call.params?.storeUrl ?? "";
  if (action === "tracking-connection.remove") {
    const connectionId = call.params?.pixelId ?? "";
    try {
      const { data } = await lookup.json("pixels-list", trackingConnectionListSchema, { params: { storeUrl } });
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
    const { data } = await lookup.json("enrich", enrichResponseSchema, {
      params: { storeUrl },
      body: { channel: "linkedin", assetIds: [payload.sourceCampaignGroupId] },
    });
    const source = data.assets.find((asset) => asset.assetId === payload.sourceCampaignGroupId);
    return source ? { ...target, sourceCampaignGroupName: source.assetName } : target;
  } catch {
    return target;
  }
}

/**
 * One guarded action through the engine (one upstream call per Idempotency-Key): the upstream's answer or its replay, with the audit id.
 */
export async function runGuardedAction(
  request: Request,
  endpoint: Endpoint,
  action: AuditAction,
  session: ActiveSession,
  scope: VerifiedScope,
  upstream: UpstreamClient,
  call: UpstreamRequest,
  /** The key of the ring that acts (the store's own); its fingerprint scopes the Idempotency-Key and names it in Activity. */
  keyFingerprint: string,
): Promise<Response> {
  const result = await runAction({
    action,
    idempotencyKey: request.headers.get(IDEMPOTENCY_HEADER),
    keyFingerprint,
    session: { id: session.id, email: session.data.user.email },
    organizationId: scope.organizationId,
    storeUrl: scope.store!.url,
    fingerprint: { method: endpoint.method, path: upstreamPath(endpoint, call.params ?? {}), body: call.body },
    target: await targetOf(action, upstream, call),
    requestId: upstream.requestId,
    send: () => upstream.send(endpoint, call),
  });
  const headers = new Headers(result.answer.headers);
  headers.set("cache-control", "no-store");
  if (result.auditId) headers.set(AUDIT_ID_HEADER, result.auditId);
  if (result.kind === "replayed") headers.set(REPLAYED_HEADER, "true");
  return new Response(result.answer.body, { status: result.answer.status, headers });
}
