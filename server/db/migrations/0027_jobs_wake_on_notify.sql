-- Upgrade: expand
-- Workers wake when a job is queued instead of polling every second (server/jobs/wake.ts): every
-- statement that queues jobs (an insert, or an update back to 'queued' for a retry) notifies the
-- channel dashboard_jobs with the earliest run_at it queued, in epoch milliseconds. A build that
-- does not listen is unaffected: a notification nobody listens to is dropped.
create function dashboard_jobs_queued() returns trigger language plpgsql as $$
declare
  due timestamptz;
begin
  select min(run_at) into due from queued_jobs where state = 'queued';
  if due is not null then
    perform pg_notify('dashboard_jobs', floor(extract(epoch from due) * 1000)::bigint::text);
  end if;
  return null;
end
$$;

create trigger jobs_queued_by_insert after insert on jobs
  referencing new table as queued_jobs for each statement execute function dashboard_jobs_queued();
create trigger jobs_queued_by_update after update on jobs
  referencing new table as queued_jobs for each statement execute function dashboard_jobs_queued();

-- The next queued job's time, read after each claim so that a worker sleeps until then.
create index jobs_next_queued on jobs (run_at) where state = 'queued';

-- What each migration says about older builds (server/db/migrate.ts, docs/operations.md): the
-- oldest build, named by the newest migration it knows, that still works on a database holding it.
alter table schema_migrations add column oldest_build text;
