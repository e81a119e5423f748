import "server-only";
import { database } from "@/server/db/database";
import { deliverMail, escapeHtml } from "@/server/delivery/mail";
import { PermanentJobFailure } from "@/server/jobs/queue";
import { newRequestId } from "@/server/http/responses";
import { logger } from "@/server/observability/log";
import { metrics } from "@/server/observability/metrics";
import { upstreamClient, type UpstreamClient } from "@/server/upstream/client";
import { MasterKeyMissing, needsReseal, openApiKey, sealApiKey, UnreadableGrant } from "./envelope";
import { addGrantNotice, endGrant, sealedKeyOf, touchGrant, type Grant, type GrantEndReason } from "./store";

/** The upstream as a grant reads it: every mutating endpoint is refused before it is sent. */
type GrantedUpstream = UpstreamClient & { readonly readOnly: true };

const REASONS: Record<GrantEndReason | "missing", string> = {
  revoked: "its owner revoked it",
  upstream_refused: "the analytics service refused its key (expired or revoked)",
  expired: "it expired (signing in renews grants)",
  undecryptable: "its sealed key failed its check under the master key it names (damaged or altered)",
  missing: "it does not exist",
};

/** Work that needs a grant that has ended: retrying cannot help, so the job stops. */
export class GrantUnusable extends PermanentJobFailure {
  constructor(
    readonly grantId: string,
    readonly reason: GrantEndReason | "missing",
  ) {
    super(`The grant ${grantId} cannot be used: ${REASONS[reason]}.`);
  }
}

/** A grant sealed under a master key DELEGATION_KEY lacks: not the grant's end; its work fails until the key is back. */
export class GrantKeyMissing extends PermanentJobFailure {
  constructor(
    readonly grantId: string,
    readonly masterKeyId: string,
  ) {
    super(
      `A configuration problem: the grant ${grantId} was sealed under master key id ${masterKeyId}, which DELEGATION_KEY does not hold. The grant is kept; add that key back to DELEGATION_KEY (after the newest).`,
    );
  }
}

/** Ends a grant the upstream refused and tells its owner (a notice in the app, and an e-mail). */
async function endRefusedGrant(grant: Grant): Promise<void> {
  const db = await database();
  if (!(await endGrant(db, grant.id, "upstream_refused", new Date()))) return;
  const message = `The analytics service refused the key behind your grant for ${grant.storeUrl}, so it has ended and its digests stop. Sign in with a valid key and grant access again to resume them.`;
  await addGrantNotice(db, grant, "grant_ended", message);
  await deliverMail({
    key: `grant-ended:${grant.id}`,
    to: grant.ownerEmail,
    subject: `Access for digests of ${grant.storeUrl} has ended`,
    text: message,
    html: `<p>${escapeHtml(message)}</p>`,
    organizationId: grant.organizationId,
    storeUrl: grant.storeUrl,
  });
}

/** A read-only client through grant `grantId`, else GrantUnusable. A 401 ends the grant; old seals are re-sealed on use. */
export async function grantedUpstream(
  grantId: string,
  options: { requestId?: string; signal?: AbortSignal } = {},
): Promise<{ upstream: GrantedUpstream; grant: Grant }> {
  const db = await database();
  const now = new Date();
  const found = await sealedKeyOf(db, grantId, now);
  if ("ended" in found) throw new GrantUnusable(grantId, found.ended);
  const { grant, sealed } = found;
  const binding = { grantId, organizationId: grant.organizationId, storeUrl: grant.storeUrl, keyFingerprint: grant.keyFingerprint };
  let apiKey: string;
  try {
    apiKey = openApiKey(binding, sealed);
  } catch (error) {
    if (error instanceof MasterKeyMissing) {
      // Kept, not erased: only a failed check under a key that is present ends a grant.
      metrics.grantKeyMissing.inc({ master_key_id: error.masterKeyId });
      logger.error(
        { grantId, storeUrl: grant.storeUrl, masterKeyId: error.masterKeyId },
        "A grant's master key is not in DELEGATION_KEY: a configuration problem; the grant is kept",
      );
      throw new GrantKeyMissing(grantId, error.masterKeyId);
    }
    if (!(error instanceof UnreadableGrant)) throw error;
    await endGrant(db, grantId, "undecryptable", now);
    throw new GrantUnusable(grantId, "undecryptable");
  }
  await touchGrant(db, grantId, now, needsReseal(sealed) ? sealApiKey(binding, apiKey) : undefined);
  const upstream = upstreamClient({
    apiKey,
    organizationId: grant.organizationId,
    requestId: options.requestId ?? newRequestId(),
    signal: options.signal,
    readOnly: true,
    onAnswer: (status) => {
      if (status !== 401) return;
      endRefusedGrant(grant).catch((error: unknown) =>
        logger.warn({ grantId, err: error instanceof Error ? error.message : String(error) }, "A refused grant could not be ended"),
      );
    },
  });
  return { upstream: Object.assign(upstream, { readOnly: true as const }), grant };
}
