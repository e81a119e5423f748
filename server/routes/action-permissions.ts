import "server-only";
import { z } from "zod";
import { database } from "@/server/db/database";
import { listRefusals, rememberRefusal } from "@/server/auth/key-refusals";
import { route } from "@/server/http/pipeline";
import { jsonResponse } from "@/server/http/responses";
import { UpstreamHttpError, type UpstreamClient } from "@/server/upstream/client";
import type { EndpointId } from "@/server/upstream/endpoints";
import type { AuditAction } from "@/shared/schemas/activity";
import type { ActionPermissions } from "@/shared/schemas/action-permissions";

/**
 * The tracking connection ID a removal probe names. It names no connection (IDs are the
 * upstream's own), so the DELETE can remove nothing whatever the key may do.
 */
const PROBE_PIXEL_ID = "dashboard-permission-check-names-no-connection";

/**
 * Each guarded action's side-effect-free probe (docs/decisions/action-permissions.md): a request
 * that cannot change anything, sent only to hear whether the upstream answers 403 first.
 * - removal: DELETE of a tracking connection ID that names none;
 * - clone: POST of an empty body, which names no ad account and no campaign group.
 */
const probes: Record<"tracking-connection.remove" | "campaign-group.clone", { endpoint: EndpointId; pixelId?: string; body?: unknown }> = {
  "tracking-connection.remove": { endpoint: "pixel-delete", pixelId: PROBE_PIXEL_ID },
  "campaign-group.clone": { endpoint: "clone", body: {} },
};

type ProbedAction = keyof typeof probes;
const probedActions = Object.keys(probes) as [ProbedAction, ...ProbedAction[]];

/** 403: the key lacks the action's permission (its message); anything else: not refused, as far as the upstream said. */
async function probe(upstream: UpstreamClient, storeUrl: string, action: ProbedAction): Promise<string | undefined> {
  const { endpoint, pixelId, body } = probes[action];
  try {
    const response = await upstream.send(endpoint, { params: { storeUrl, pixelId }, body });
    if (response.status !== 403) {
      await response.body?.cancel();
      return undefined;
    }
    return (await UpstreamHttpError.from(response)).body.error;
  } catch {
    // No answer: nothing learnt; a real try still teaches the refusal.
    return undefined;
  }
}

/**
 * GET /api/stores/{storeUrl}/action-permissions?action=…: whether the store's key is refused the
 * action (a page asks for its own), before anybody types a confirmation. A refusal remembered for
 * this key answers at once; else the action is probed (side-effect free), and a 403 is remembered
 * for the key. The answer lists every refusal remembered for the key.
 */
export const actionPermissions = route(
  {
    methods: ["GET"],
    path: "/api/stores/[storeUrl]/action-permissions",
    scope: "store",
    query: z.strictObject({ action: z.enum(probedActions) }),
  },
  async ({ scope, key, upstream, query, requestId }) => {
    const storeUrl = scope.store!.url;
    const db = await database();
    const remembered = await listRefusals(db, [key.fingerprint]);
    const refused = new Map<AuditAction, { message: string; refusedAt: Date }>(
      remembered.map((refusal) => [refusal.action, { message: refusal.message, refusedAt: refusal.refusedAt }]),
    );
    const unknown = refused.has(query.action) ? [] : [query.action];
    const answers = await Promise.all(unknown.map((action) => probe(upstream, storeUrl, action)));
    for (const [index, message] of answers.entries()) {
      if (message === undefined) continue;
      const at = new Date();
      await rememberRefusal(db, key.fingerprint, unknown[index]!, message, at);
      refused.set(unknown[index]!, { message, refusedAt: at });
    }
    const body: ActionPermissions = {
      refusals: [...refused].map(([action, { message, refusedAt }]) => ({ action, message, refusedAt: refusedAt.toISOString() })),
    };
    return jsonResponse(body, { requestId });
  },
);
