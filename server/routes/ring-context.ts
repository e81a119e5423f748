import "server-only";
import { contextSchema, type Context } from "@/shared/schemas/context";
import { dropRefusedKey, keyClient } from "@/server/auth/ring";
import type { ActiveSession } from "@/server/auth/current-session";
import { jsonResponse } from "@/server/http/responses";
import { UpstreamHttpError } from "@/server/upstream/client";

/** The organizations of several contexts, each once, with the union of their stores. */
function mergeContexts(contexts: readonly Context[]): Context {
  const organizations: Context["organizations"] = [];
  for (const context of contexts)
    for (const organization of context.organizations) {
      const known = organizations.find((candidate) => candidate.id === organization.id);
      if (!known) organizations.push({ ...organization, stores: [...organization.stores] });
      else for (const store of organization.stores) if (!known.stores.some((other) => other.url === store.url)) known.stores.push(store);
    }
  return { ...contexts[0]!, organizations };
}

/** GET /context for a ring, asked per key and answered as one context of all stores; a key refused with 401 leaves, the last one throws. */
export async function ringContext(
  session: ActiveSession,
  requestId: string,
  signal: AbortSignal,
  organizationId: string | undefined,
  log: { upstreamRequestId?: string },
): Promise<Response> {
  const keys = organizationId ? session.keys.filter((key) => key.organizationId === organizationId) : session.keys;
  const query = organizationId ? { organizationId } : {};
  const results = await Promise.allSettled(
    keys.map((key) => keyClient(session, key, requestId, signal).with({ organizationId }).json("context", contextSchema, { query })),
  );
  const contexts: Context[] = [];
  let refusal: unknown;
  for (const [index, result] of results.entries()) {
    if (result.status === "fulfilled") {
      contexts.push(result.value.data);
      log.upstreamRequestId ??= result.value.upstreamRequestId;
    } else if (result.reason instanceof UpstreamHttpError && result.reason.status === 401) {
      await dropRefusedKey(session.id, keys[index]!, result.reason);
      refusal ??= result.reason;
    } else throw result.reason;
  }
  if (contexts.length === 0) throw refusal;
  return jsonResponse(mergeContexts(contexts), { requestId });
}
