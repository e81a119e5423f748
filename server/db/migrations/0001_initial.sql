-- Durable state of the dashboard. Never holds an API key: sessions keep it sealed in the
-- cookie; rows name a key only by its HMAC fingerprint (keyed by the session secret).

create table sessions (
  id text primary key,
  key_fingerprint text not null,
  user_email text not null,
  user_name text not null,
  organization_id text,
  organization_name text,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  user_agent text not null default '',
  client_address text not null default '',
  revoked_at timestamptz,
  revoked_reason text
);
create index sessions_by_key on sessions (key_fingerprint, created_at desc);

-- One row per (key, Idempotency-Key): started before the upstream call, then definitive or unknown.
-- A request that was not done leaves no row. The audit context is kept so that a started row
-- found stale after a crash can still be audited with the names known at the time.
create table idempotency_records (
  key_fingerprint text not null,
  idempotency_key text not null check (idempotency_key ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  request_fingerprint text not null,
  action text not null check (action in ('tracking-connection.remove', 'campaign-group.clone')),
  state text not null check (state in ('started', 'definitive', 'unknown')),
  outcome text check (outcome in ('succeeded', 'failed')),
  attempt_id text not null,
  locked_at timestamptz not null,
  response_status integer,
  response_headers jsonb,
  response_body text,
  audit_id text,
  organization_id text,
  store_url text not null,
  user_email text not null,
  session_id text,
  request_id text,
  target jsonb not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (key_fingerprint, idempotency_key)
);
create index idempotency_records_expiry on idempotency_records (expires_at);

create table audit_entries (
  id text primary key,
  at timestamptz not null,
  organization_id text,
  store_url text not null,
  user_email text not null,
  session_id text,
  action text not null check (action in ('tracking-connection.remove', 'campaign-group.clone')),
  outcome text not null check (outcome in ('succeeded', 'failed', 'not_done', 'unknown')),
  status integer,
  target jsonb not null,
  request_id text,
  upstream_request_id text,
  idempotency_key text
);
-- Keyset paging, newest first, within one organization.
create index audit_entries_page on audit_entries (organization_id, at desc, id desc);
create index audit_entries_age on audit_entries (at);

create table sign_in_failures (
  client text not null,
  at timestamptz not null
);
create index sign_in_failures_by_client on sign_in_failures (client, at desc);
create index sign_in_failures_age on sign_in_failures (at);

create table key_refusals (
  key_fingerprint text not null,
  action text not null,
  message text not null,
  refused_at timestamptz not null,
  primary key (key_fingerprint, action)
);

create table saved_views (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  name text not null,
  view jsonb not null,
  created_by_email text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  deleted_at timestamptz
);
create unique index saved_views_unique_name on saved_views (organization_id, store_url, lower(name)) where deleted_at is null;
