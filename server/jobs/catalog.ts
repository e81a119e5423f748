import "server-only";
import { registerAlertJobs } from "@/server/alerts/jobs";
import { database } from "@/server/db/database";
import { registerDigestJobs } from "@/server/digests/jobs";
import { registerResendJob } from "@/server/delivery/resend-job";
import { registerRetentionJob } from "@/server/maintenance/retention";
import { registeredJobs, registerJob, scheduleRecurring } from "./queue";
import { pruneRuns } from "./runs";

/** Every kind of background job, registered on each instance before its worker starts. */
export function registerAllJobs(): void {
  registerDigestJobs();
  registerAlertJobs();
  registerRetentionJob();
  registerResendJob();
  registerJob(
    "jobs.prune",
    async () => ({ detail: `${await pruneRuns(await database(), new Date(), registeredJobs().keepRunsDays)} old runs deleted` }),
    { maxAttempts: 1 },
  );
  scheduleRecurring("jobs.prune", 3_600_000);
}
