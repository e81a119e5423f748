import "server-only";
import { createHash } from "node:crypto";
import { cloneCampaignRequestSchema, cloneCampaignResponseSchema } from "@/lib/schemas/campaign-clone";
import { DashboardError, errorResponse as dashboardErrorResponse } from "@/lib/server/http";
import type { ErrorCode } from "@/lib/schemas/error";

function errorResponse(status: number, code: ErrorCode, message: string, options: { requestId: string }): Response {
  return dashboardErrorResponse(new DashboardError(status, code, message), options.requestId);
}
import type { SessionData } from "@/lib/session/session";
import { type Endpoint, upstreamPath } from "@/lib/upstream/endpoints";
import type { AuditAction } from "@/lib/schemas/activity";
import { recordAction } from "./audit";
import { idempotencyStore, type StoredResponse } from "./idempotency";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GuardedActionCall {
  action: AuditAction;
  session: SessionData;
  requestId: string;
  endpoint: Endpoint;
  params: Partial<Record<"storeUrl" | "pixelId", string>>;
  /** The body, already validated by the endpoint's schema. */
  body: unknown;
  organizationId?: string;
  /** Runs the upstream call once and maps its answer, as the proxy does for any endpoint. */
  send: () => Promise<Response>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Whether an answer is the action's final word, to replay for the rest of the key's life.
 * A 5xx, a timeout or an unreachable upstream may be temporary: not kept, so a retry with
 * the same key runs the action again. 401 ends the session, 409 and 429 ask to come back
 * later: nothing to replay either.
 */
export function isFinalStatus(status: number): boolean {
  return status < 500 && status !== 401 && status !== 409 && status !== 429;
}

function targetIds(call: GuardedActionCall): string[] {
  if (call.action === "tracking-connection.remove") return [call.params.pixelId ?? ""];
  const body = cloneCampaignRequestSchema.safeParse(call.body);
  return body.success ? [body.data.adAccountId, body.data.payload.sourceCampaignGroupId] : [];
}

function resultIds(action: AuditAction, response: StoredResponse): string[] {
  if (action !== "campaign-group.clone" || response.status !== 200) return [];
  try {
    const parsed = cloneCampaignResponseSchema.safeParse(JSON.parse(response.body));
    return parsed.success ? [parsed.data.asset.assetId] : [];
  } catch {
    return [];
  }
}

/** Reads the whole answer, so that it can be kept; a body cut off midway becomes a 502. */
async function readWhole(response: Response, requestId: string): Promise<{ stored: StoredResponse; live: Response }> {
  let body: string;
  let source = response;
  try {
    body = await response.text();
  } catch {
    source = errorResponse(502, "upstream_unavailable", "The analytics service's answer was cut off.", {
      requestId: response.headers.get("x-request-id") ?? requestId,
    });
    body = await source.text();
  }
  const headers: Record<string, string> = {};
  for (const name of ["content-type", "x-request-id"]) {
    const value = source.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  // The live answer keeps every header the proxy set (a 401 clears the session cookie); the kept one only these.
  return { stored: { status: source.status, headers, body }, live: new Response(body, { status: source.status, headers: source.headers }) };
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set("cache-control", "no-store");
  headers.set(REPLAYED_HEADER, "true");
  return new Response(stored.body, { status: stored.status, headers });
}

/**
 * Runs one guarded action at most once per Idempotency-Key. The key is scoped to the API
 * key (both hashed, neither stored); the same key with the same request replays the first
 * final answer for 24 hours, a concurrent duplicate waits for the first, the same key with
 * another request is refused with 409. Every run leaves an audit entry.
 * Same origin, session and body are checked by the caller before this runs.
 */
export async function runGuardedAction(request: Request, call: GuardedActionCall): Promise<Response> {
  const { requestId, session } = call;
  const key = request.headers.get(IDEMPOTENCY_HEADER)?.trim() ?? "";
  if (!UUID.test(key)) {
    const problem = key ? "is not a UUID" : "is missing";
    return errorResponse(
      400,
      "bad_request",
      `The Idempotency-Key header ${problem}: send a new UUID with each action, and the same one when retrying it.`,
      { requestId },
    );
  }
  const scope = sha256(`${session.apiKey}\n${key}`);
  const path = upstreamPath(call.endpoint, call.params);
  const fingerprint = sha256(JSON.stringify([call.action, call.endpoint.method, path, call.organizationId ?? null, call.body ?? null]));

  // Twice at most: a waiter whose first run ended without an answer (it threw) takes over once.
  for (let attempt = 0; attempt < 2; attempt++) {
    const reservation = await idempotencyStore().reserve(scope, fingerprint);
    if (reservation.kind === "mismatch") {
      return errorResponse(
        409,
        "idempotency_conflict",
        "This Idempotency-Key was already used for a different request. Start the action again to get a new key.",
        { requestId },
      );
    }
    if (reservation.kind === "replay") return replay(reservation.response);
    if (reservation.kind === "pending") {
      const settled = await reservation.settled;
      if (settled) return replay(settled);
      continue;
    }

    let outcome: { stored: StoredResponse; live: Response };
    try {
      outcome = await readWhole(await call.send(), requestId);
    } catch (error) {
      await reservation.complete(null, false);
      throw error;
    }
    await reservation.complete(outcome.stored, isFinalStatus(outcome.stored.status));
    await audit(call, outcome.stored);
    return outcome.live;
  }
  return errorResponse(
    409,
    "idempotency_conflict",
    "This action is already running with the same Idempotency-Key. Try again in a moment.",
    { requestId },
  );
}

async function audit(call: GuardedActionCall, response: StoredResponse): Promise<void> {
  const succeeded = response.status >= 200 && response.status < 300;
  // An organization named by the request's header is trusted once the upstream accepted it;
  // a refused request is filed under the session's own organization, never another's.
  const organizationId = (succeeded ? call.organizationId : undefined) ?? call.session.organizationId ?? null;
  try {
    await recordAction({
      userEmail: call.session.user.email,
      organizationId,
      storeUrl: call.params.storeUrl ?? "",
      action: call.action,
      targetIds: targetIds(call),
      resultIds: resultIds(call.action, response),
      outcome: succeeded ? "succeeded" : "failed",
      status: response.status,
      upstreamRequestId: response.headers["x-request-id"] ?? null,
    });
  } catch (error) {
    // The action has run and its answer is kept; a failing history store must not hide that answer.
    console.error(
      JSON.stringify({
        time: new Date().toISOString(),
        msg: "audit write failed",
        action: call.action,
        requestId: call.requestId,
        error: String(error),
      }),
    );
  }
}
