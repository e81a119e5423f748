-- The browser half of exactly-once: the clone a session reviewed and sent (its request and its
-- Idempotency-Key), kept from the moment "Clone campaign group" is pressed, so that a reload, a
-- closed tab or a second tab finds the attempt (and, through its idempotency record, its
-- outcome) instead of an empty form. One per session and store; kept as long as the record.
create table clone_attempts (
  session_id text not null,
  store_url text not null,
  organization_id text not null,
  key_fingerprint text not null,
  idempotency_key text not null,
  request jsonb not null,
  created_at timestamptz not null,
  primary key (session_id, store_url)
);
create index clone_attempts_age on clone_attempts (created_at);
-- Identical clones of one organization in the last day (the review step's warning).
create index audit_entries_clones on audit_entries (organization_id, at desc) where action = 'campaign-group.clone';
