import "server-only";
import { registerAlertJobs } from "@/server/alerts/jobs";
import { database } from "@/server/db/database";
import { purgeExpired } from "@/server/maintenance/purge";
import { registerDigestJobs } from "@/server/digests/jobs";
import { registerResendJob } from "@/server/delivery/resend-job";
import { registerRetentionJob } from "@/server/maintenance/retention";
import { registerRollupJobs } from "@/server/rollups/fill-job";
import { queueDb, registeredJobs, registerJob, scheduleRecurring } from "./queue";
import { pruneRuns } from "./runs";

/** Every kind of background job, registered on each instance before its worker starts. */
export function registerAllJobs(): void {
  registerDigestJobs();
  registerAlertJobs();
  registerRetentionJob();
  registerRollupJobs();
  registerResendJob();
  registerJob(
    "jobs.prune",
    async () => ({ detail: `${await pruneRuns(await queueDb(), new Date(), registeredJobs().keepRunsDays)} old runs deleted` }),
    { maxAttempts: 1 },
  );
  scheduleRecurring("jobs.prune", 3_600_000);
  // Expired sessions, grants' sealed keys, idempotency records…: on schedule, whether or not anyone signs in.
  registerJob("maintenance.purge-expired", async () => ({ detail: await purgeExpired(await database(), new Date()) }), { maxAttempts: 1 });
  scheduleRecurring("maintenance.purge-expired", 15 * 60_000);
}
