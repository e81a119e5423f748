import "server-only";
import { newDeliveryTally, settleDeliveries } from "@/server/delivery/ledger";
import { acrossStores } from "@/server/db/reach";
import { z } from "zod";
import { database, type Db } from "@/server/db/database";
import { deliverMail, publicOrigin } from "@/server/delivery/mail";
import { grantedUpstream, GrantUnusable } from "@/server/grants/granted-upstream";
import { enqueue, registerJob, scheduleRecurring, type RunningJob } from "@/server/jobs/queue";
import { UpstreamHttpError } from "@/server/upstream/client";
import { composeDigest } from "./compose";
import { renderDigest } from "./render";
import { composePortfolioDigest, renderPortfolioDigest } from "@/server/portfolio/digest";
import { activeRecipients, lastSendOf, recordSend, scheduleById, takeDueSlots, type DigestSchedule } from "./store";

const PLAN = "digest.plan";
const SEND = "digest.send";

const sendPayload = z.object({ scheduleId: z.string(), slot: z.string() });

/** Queues one send of a digest; `slot` names it ("now-…" for Send now), so each slot is sent once. */
export function enqueueDigest(schedule: { id: string; organizationId: string; storeUrl: string }, slot: string, db?: Db) {
  const { id: scheduleId, organizationId, storeUrl } = schedule;
  return enqueue(SEND, { scheduleId, slot }, { uniqueKey: `${SEND}:${scheduleId}:${slot}`, organizationId, storeUrl, db });
}

async function planDigests(): Promise<{ detail: string }> {
  const db = await database();
  // The planner scans every store's schedules: a deliberate path across stores.
  const slots = await acrossStores(db, "digest planner: due schedules", async (tx) => {
    const due = await takeDueSlots(tx, new Date());
    for (const { scheduleId, organizationId, storeUrl, slot } of due) {
      await enqueue(
        SEND,
        { scheduleId, slot: slot.toISOString() },
        { uniqueKey: `${SEND}:${scheduleId}:${slot.toISOString()}`, organizationId, storeUrl, db: tx },
      );
    }
    return due.length;
  });
  return { detail: `${slots} digest${slots === 1 ? "" : "s"} due` };
}

async function sendDigest(job: RunningJob): Promise<{ detail: string }> {
  const { scheduleId, slot } = sendPayload.parse(job.payload);
  const db = await database();
  const schedule = await scheduleById(db, scheduleId);
  if (!schedule) return { detail: "Not sent: the schedule (or its saved view) was deleted." };
  if (schedule.viewDeleted)
    return { detail: `Not sent: its saved view “${schedule.viewName}” was deleted. Restore the view, or schedule another one.` };
  const recipients = await activeRecipients(db, scheduleId);
  if (recipients.length === 0) return { detail: "Not sent: every recipient unsubscribed." };
  if (schedule.portfolio) {
    const content = await composePortfolioDigest(db, schedule, new Date(), job.signal);
    if (content.rows.length === 0) return { detail: `Not sent: none of its stores has a grant in force (${content.leftOut.join(", ")}).` };
    const view = `${publicOrigin()}/stores?${content.search}`;
    return settleDeliveries(
      await deliver(job, schedule, slot, recipients, (unsubscribe) => renderPortfolioDigest(content, { view, unsubscribe })),
    );
  }
  const { upstream } = await grantedUpstream(schedule.grantId, { signal: job.signal });
  let content;
  try {
    content = await composeDigest(db, upstream, schedule, new Date(), await lastSendOf(db, scheduleId, slot));
  } catch (error) {
    // The grant's key was refused: the grant has ended (its owner is told); retrying cannot help.
    if (error instanceof UpstreamHttpError && error.status === 401) throw new GrantUnusable(schedule.grantId, "upstream_refused");
    throw error;
  }
  const params = new URLSearchParams(schedule.search);
  params.set("organizationId", schedule.organizationId);
  const viewLink = `${publicOrigin()}/stores/${encodeURIComponent(schedule.storeUrl)}/products?${params}`;
  const dataChanges = `${publicOrigin()}/stores/${encodeURIComponent(schedule.storeUrl)}/data-changes?${new URLSearchParams({ organizationId: schedule.organizationId })}`;
  const outcomes = await deliver(job, schedule, slot, recipients, (unsubscribe) =>
    renderDigest(content, { view: viewLink, unsubscribe, dataChanges }),
  );
  // Sent to someone: the next digest names only days restated after this one looked.
  if (outcomes.sent > 0) await recordSend(db, scheduleId, slot, content.restated.asOf);
  return settleDeliveries(outcomes);
}

/** The digest to each recipient, under its own key (schedule, slot, recipient), with its own unsubscribe link. */
async function deliver(
  job: RunningJob,
  schedule: DigestSchedule,
  slot: string,
  recipients: { email: string; token: string }[],
  render: (unsubscribe: string) => { subject: string; html: string; text: string },
) {
  const outcomes = newDeliveryTally();
  for (const recipient of recipients) {
    const unsubscribe = `${publicOrigin()}/api/unsubscribe/${recipient.token}`;
    const delivery = await deliverMail({
      key: `digest:${schedule.id}:${slot}:${recipient.email}`,
      to: recipient.email,
      ...render(unsubscribe),
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      organizationId: schedule.organizationId,
      storeUrl: schedule.storeUrl,
      jobId: job.id,
      workerId: job.workerId,
      signal: job.signal,
    });
    outcomes[delivery.outcome] += 1;
  }
  return outcomes;
}

export function registerDigestJobs(): void {
  registerJob(PLAN, planDigests, { maxAttempts: 1 });
  registerJob(SEND, sendDigest, { maxAttempts: 5, backoffMs: 30_000 });
  scheduleRecurring(PLAN, 60_000);
}
