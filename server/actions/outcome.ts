import "server-only";
import type { z } from "zod";
import type { AuditAction } from "@/shared/schemas/activity";
import { cloneCampaignResponseSchema } from "@/shared/schemas/campaign-clone";
import { apiErrorSchema } from "@/shared/schemas/error";
import { trackingConnectionDeleteSchema } from "@/shared/schemas/tracking-connection";
import type { StoredAnswer } from "@/server/actions/idempotency";
import { UpstreamFailure } from "@/server/upstream/client";

/**
 * What one upstream call tells about whether the action happened:
 * - definitive: a 2xx that validates, or an Error-shaped 4xx (not 429) or 500;
 * - not done: never left, or an Error-shaped 503/429 (retry later);
 * - unknown: anything else after it left (timeout, reset, bad body, a 2xx failing its schema, an error status without the Error shape).
 */
export type Classified =
  | { kind: "definitive"; outcome: "succeeded" | "failed"; answer: StoredAnswer; newGroupId?: string; errorMessage?: string }
  | { kind: "not_done"; answer: StoredAnswer; errorMessage: string }
  /** The request never left: `error` is rethrown for the caller to answer as before. */
  | { kind: "not_sent"; error: unknown }
  | { kind: "unknown"; status: number | null; upstreamRequestId: string | null; timedOut: boolean; error?: unknown };

const successSchemas: Partial<Record<AuditAction, z.ZodType>> = {
  "campaign-group.clone": cloneCampaignResponseSchema,
  "tracking-connection.remove": trackingConnectionDeleteSchema,
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isTimeout(error: unknown): boolean {
  if (error instanceof UpstreamFailure) return error.code === "upstream_timeout";
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Runs `send` once and classifies it. `afterUnknown`: an earlier attempt ended unknown, so a 404 now means it removed the target. */
export async function sendAndClassify(action: AuditAction, send: () => Promise<Response>, afterUnknown: boolean): Promise<Classified> {
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    if (error instanceof UpstreamFailure && !error.requestSent) return { kind: "not_sent", error };
    return { kind: "unknown", status: null, upstreamRequestId: null, timedOut: isTimeout(error), error };
  }
  const upstreamRequestId = response.headers.get("x-request-id");
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    return { kind: "unknown", status: response.status, upstreamRequestId, timedOut: isTimeout(error), error };
  }
  const headers: StoredAnswer["headers"] = {};
  const contentType = response.headers.get("content-type");
  if (contentType !== null) headers["content-type"] = contentType;
  if (upstreamRequestId !== null) headers["x-request-id"] = upstreamRequestId;
  const answer: StoredAnswer = { status: response.status, headers, body };
  const json = parseJson(body);
  const unknown = { kind: "unknown", status: response.status, upstreamRequestId, timedOut: false } as const;

  if (response.status >= 200 && response.status < 300) {
    const parsed = successSchemas[action]!.safeParse(json);
    if (!parsed.success) return unknown;
    const newGroupId =
      action === "campaign-group.clone" ? (parsed.data as z.infer<typeof cloneCampaignResponseSchema>).asset.assetId : undefined;
    return { kind: "definitive", outcome: "succeeded", answer, ...(newGroupId ? { newGroupId } : {}) };
  }
  const error = apiErrorSchema.safeParse(json);
  if (!error.success) return unknown;
  const errorMessage = error.data.error;
  if (response.status === 503 || response.status === 429) return { kind: "not_done", answer, errorMessage };
  if (response.status === 404 && afterUnknown && action === "tracking-connection.remove") {
    return { kind: "definitive", outcome: "succeeded", answer, errorMessage };
  }
  if ((response.status >= 400 && response.status < 500) || response.status === 500) {
    return { kind: "definitive", outcome: "failed", answer, errorMessage };
  }
  return unknown;
}
