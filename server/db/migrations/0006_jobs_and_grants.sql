-- Background work shared by every instance (server/jobs/queue.ts): a job is claimed under a
-- lease that its worker renews; a lease left to lapse (the process died) lets another take it.
create table jobs (
  id bigserial primary key,
  name text not null,
  payload jsonb not null default '{}'::jsonb,
  -- At most one job per key: a scheduled slot is enqueued once, whichever instance comes first.
  unique_key text unique,
  organization_id text,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'dead')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0,
  max_attempts integer not null default 5 check (max_attempts > 0),
  locked_by text,
  lease_until timestamptz,
  detail text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index jobs_due on jobs (run_at) where state in ('queued', 'running');
create index jobs_by_organization on jobs (organization_id, created_at desc);

-- Consented unattended reads: the API key sealed with a data key of its own (AES-256-GCM), the
-- data key wrapped by a master key from DELEGATION_KEY (named by its id, never stored here).
create table grants (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  key_fingerprint text not null,
  owner_email text not null,
  master_key_id text not null,
  wrapped_data_key bytea not null,
  sealed_api_key bytea not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  expires_at timestamptz not null,
  ended_at timestamptz,
  ended_reason text check (ended_reason in ('revoked', 'upstream_refused', 'expired', 'undecryptable'))
);
create index grants_by_store on grants (organization_id, store_url);
create index grants_by_key on grants (key_fingerprint);

-- What a grant's owner must be told (a grant ended by the upstream): shown in the app, also e-mailed.
create table grant_notices (
  id bigserial primary key,
  grant_id text not null references grants (id) on delete cascade,
  organization_id text not null,
  store_url text not null,
  owner_email text not null,
  key_fingerprint text not null,
  kind text not null,
  message text not null,
  created_at timestamptz not null default now(),
  read_at timestamptz
);
create index grant_notices_by_key on grant_notices (key_fingerprint, created_at desc);
