-- Fair claiming (server/jobs/queue.ts, docs/decisions/job-queue.md): due jobs are taken round-robin
-- across tenants, and a tenant runs at most JOBS_TENANT_CONCURRENCY jobs at once across instances.
-- A job's tenant is its organization, else its store; jobs of no store (the planner, the purge, the
-- scheduled alert check) share one tenant of their own.
alter table jobs add column tenant text generated always as (
  coalesce('organization:' || organization_id, 'store:' || store_url, 'dashboard')
) stored;

-- The claim walks the tenants with jobs queued or running, then reads each one's first due jobs
-- by (run_at, id): both from this index, in its order, without sorting the whole queue.
create index jobs_due_by_tenant on jobs (tenant, run_at, id) where state in ('queued', 'running');
-- Each tenant's running jobs, counted at every claim: a few rows, whatever the queue and the runs kept.
create index jobs_running_by_tenant on jobs (tenant) where state = 'running';
-- The claim no longer reads the queue in run_at order across tenants.
drop index jobs_due;
