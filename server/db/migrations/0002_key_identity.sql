-- Values the dashboard generates once per database and never rotates with the cookie secret:
-- the pepper of key fingerprints, so that a key's sessions, idempotency records and refusals
-- keep one identity across SESSION_SECRET rotations.
create table dashboard_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null
);
