import "server-only";
import { z } from "zod";
import { database } from "@/server/db/database";
import { registerJob, type RunningJob } from "@/server/jobs/queue";
import { RESEND_JOB } from "./decisions";
import { newDeliveryTally, settleDeliveries } from "./ledger";
import { deliverMail } from "./mail";
import { unsuppressed } from "./suppressions";

const payloadSchema = z.object({ key: z.string() });

/** "Send again": the stored message to the same address under the key its decision named, claimed in the ledger first so it goes once. */
async function sendAgain(job: RunningJob): Promise<{ detail: string }> {
  const { key } = payloadSchema.parse(job.payload);
  const db = await database();
  const [original] = await db.query<{
    organizationId: string | null;
    storeUrl: string;
    recipient: string;
    subject: string;
    html: string;
    textBody: string;
    headers: Record<string, string>;
    resentKey: string | null;
  }>(
    `select organization_id as "organizationId", store_url as "storeUrl", recipient, subject, html, text_body as "textBody", headers,
       resent_key as "resentKey"
     from deliveries where key = $1 and decision = 'send_again'`,
    [key],
  );
  if (!original?.resentKey) return { detail: "Not sent again: the message is no longer in the deliveries ledger." };
  if (original.html === "" && original.textBody === "") return { detail: "Not sent again: its body was removed by the retention purge." };
  const store = { organizationId: original.organizationId ?? "", storeUrl: original.storeUrl };
  if ((await unsuppressed(db, store, [original.recipient])).length === 0)
    return { detail: `Not sent again: ${original.recipient} unsubscribed from this store's mail.` };
  const delivery = await deliverMail({
    key: original.resentKey,
    to: original.recipient,
    subject: original.subject,
    html: original.html,
    text: original.textBody,
    headers: original.headers,
    organizationId: original.organizationId ?? undefined,
    storeUrl: original.storeUrl,
    jobId: job.id,
    workerId: job.workerId,
    signal: job.signal,
  });
  const tally = newDeliveryTally();
  tally[delivery.outcome] += 1;
  return settleDeliveries(tally);
}

export function registerResendJob(): void {
  registerJob(RESEND_JOB, sendAgain, { maxAttempts: 5, backoffMs: 30_000 });
}
