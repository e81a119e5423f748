import "server-only";
import { IDEMPOTENCY_HEADER } from "@/server/actions/engine";
import { appendChange } from "@/server/audit/audit";
import { database } from "@/server/db/database";
import { decide, unknownDelivery, type AwaitingDelivery, type DecisionRecord } from "@/server/delivery/decisions";
import { unsuppressed } from "@/server/delivery/suppressions";
import { changeBy, samePerson } from "@/server/grants/ownership";
import { ACTION_BODY_LIMIT, route } from "@/server/http/pipeline";
import { DashboardError, jsonResponse } from "@/server/http/responses";
import { formatDateTime } from "@/shared/format";
import { deliveryDecisionSchema } from "@/shared/schemas/runs";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function pressKey(request: Request): string {
  const key = request.headers.get(IDEMPOTENCY_HEADER)?.trim().toLowerCase() ?? "";
  if (UUID.test(key)) return key;
  throw new DashboardError(
    400,
    "bad_request",
    `The Idempotency-Key header ${key ? "is not a UUID" : "is missing"}: send a new UUID with each press, and the same one when retrying it.`,
  );
}

const WHAT = { digest: "digest", alert: "alert rule" } as const;

/** Only the owner of the grant the message went out through decides; others are told who may. */
function checkOwner(delivery: AwaitingDelivery, viewer: string): void {
  if (delivery.ownerEmail === null) {
    const what = delivery.source ? `Its ${WHAT[delivery.source.kind]} was deleted` : "It belongs to no digest or alert rule";
    throw new DashboardError(403, "forbidden", `${what}, so no one may send this message again or mark it as arrived.`);
  }
  if (!samePerson(delivery.ownerEmail, viewer))
    throw new DashboardError(
      403,
      "forbidden",
      `Only ${delivery.ownerEmail} may send this message again or mark it as arrived: it went out through their grant.`,
    );
}

const answer = (record: DecisionRecord) => ({
  key: record.key,
  decision: record.decision,
  decidedBy: record.decidedBy,
  decidedAt: record.decidedAt.toISOString(),
  resentKey: record.resentKey,
});

const DECIDED_WORDS = { send_again: "sent it again", arrived: "marked it as arrived" } as const;

/**
 * POST /api/stores/{storeUrl}/deliveries/decisions: the owner's decision about an `unknown` message,
 * "Send again" (queued as a job: the stored message under a new key) or "It arrived". Once per
 * message: a replay of the same press (its Idempotency-Key) answers the same and sends nothing;
 * any other press on a decided message is a 409 saying who decided and when.
 */
export const decideDelivery = route(
  {
    methods: ["POST"],
    path: "/api/stores/[storeUrl]/deliveries/decisions",
    scope: "store",
    body: { schema: deliveryDecisionSchema, maxBytes: ACTION_BODY_LIMIT },
  },
  async ({ request, scope, session, key, body, requestId }) => {
    const requestKey = pressKey(request);
    const viewer = session.data.user.email;
    const db = await database();
    const delivery = await unknownDelivery(db, scope.store!.url, body.key);
    if (!delivery) throw new DashboardError(404, "not_found", "This store has no message with an unknown outcome under that key.");
    checkOwner(delivery, viewer);
    const result = await db.transaction(async (tx) => {
      const outcome = await decide(tx, delivery, { kind: body.decision, by: viewer, requestKey, at: new Date() });
      if (!outcome.decided) return outcome;
      if (body.decision === "send_again") {
        if (!delivery.bodyKept)
          throw new DashboardError(
            409,
            "cannot_send_again",
            "This message cannot be sent again: its body was removed by the retention purge. Ask the recipient whether it arrived.",
          );
        const store = { organizationId: delivery.organizationId ?? "", storeUrl: delivery.storeUrl };
        if ((await unsuppressed(tx, store, [delivery.recipient])).length === 0)
          throw new DashboardError(
            409,
            "cannot_send_again",
            `This message cannot be sent again: ${delivery.recipient} unsubscribed from this store's mail.`,
          );
      }
      await appendChange(
        tx,
        changeBy(scope, session, requestId, key),
        body.decision === "send_again" ? "delivery.send-again" : "delivery.arrived",
        {
          ...(delivery.source?.kind === "digest" ? { digestId: delivery.source.digestId } : {}),
          ...(delivery.source?.kind === "alert" && delivery.source.ruleId ? { ruleId: delivery.source.ruleId } : {}),
          change: `“${delivery.subject}” to ${delivery.recipient}`,
        },
      );
      return outcome;
    });
    const { record } = result;
    if (result.decided) return jsonResponse(answer(record), { status: body.decision === "send_again" ? 202 : 200, requestId });
    // The same press again (a double click, a retried request): the same answer, nothing more sent.
    if (record.requestKey === requestKey && record.decision === body.decision && samePerson(record.decidedBy, viewer))
      return jsonResponse(answer(record), { status: record.decision === "send_again" ? 202 : 200, requestId });
    throw new DashboardError(
      409,
      "already_decided",
      `${record.decidedBy} already ${DECIDED_WORDS[record.decision]} on ${formatDateTime(record.decidedAt.toISOString(), "UTC")}: it is not offered again.`,
    );
  },
);
