-- Every message the dashboard sends, by its key (what + slot + recipient): recorded as
-- 'sending' before it leaves and with its outcome after, like a guarded action. A row left in
-- 'sending' by a process that died becomes 'unknown' and is never sent again silently.
create table deliveries (
  key text primary key,
  organization_id text,
  store_url text,
  job_id bigint,
  recipient text not null,
  subject text not null,
  html text not null,
  text_body text not null,
  headers jsonb not null default '{}'::jsonb,
  channel text not null check (channel in ('smtp', 'outbox')),
  outcome text not null check (outcome in ('sending', 'sent', 'not_sent', 'unknown')),
  detail text,
  message_id text,
  attempts integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index deliveries_by_organization on deliveries (organization_id, created_at desc);

-- A saved view sent on a schedule: daily or weekly at a wall-clock time in the store's zone.
create table digest_schedules (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  saved_view_id text not null references saved_views (id) on delete cascade,
  grant_id text not null references grants (id) on delete cascade,
  cadence text not null check (cadence in ('daily', 'weekly')),
  -- ISO weekday, 1 = Monday; weekly only.
  weekday smallint check (weekday between 1 and 7),
  local_time text not null check (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone text not null,
  next_run_at timestamptz not null,
  created_by_email text not null,
  created_at timestamptz not null
);
create index digest_schedules_due on digest_schedules (next_run_at);
create index digest_schedules_by_store on digest_schedules (organization_id, store_url);

-- Each recipient unsubscribes by a random token of their own (no sign-in, nothing to forge).
create table digest_recipients (
  schedule_id text not null references digest_schedules (id) on delete cascade,
  email text not null,
  unsubscribe_token text not null unique,
  unsubscribed_at timestamptz,
  primary key (schedule_id, email)
);
