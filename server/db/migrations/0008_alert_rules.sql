-- Alert rules of an organization, per store: what to watch and how to judge it (definition, checked
-- by the rule schema), where to deliver, mute and snooze; and the state the last check left.
create table alert_rules (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  definition jsonb not null,
  webhook_secret text not null,
  muted boolean not null default false,
  snoozed_until timestamptz,
  state text not null default 'ok' check (state in ('ok', 'firing')),
  last_checked_at timestamptz,
  created_by_email text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  deleted_at timestamptz
);
create index alert_rules_by_store on alert_rules (organization_id, store_url) where deleted_at is null;

-- One row per episode: from the first period a rule fired to the first period it no longer did.
-- At most one open episode per rule, so two checks at once cannot both open one.
create table alert_episodes (
  id text primary key,
  rule_id text not null references alert_rules (id) on delete cascade,
  opened_period text not null,
  opened_at timestamptz not null,
  resolved_period text,
  resolved_at timestamptz,
  value numeric not null,
  baseline numeric,
  what_moved jsonb
);
create unique index alert_episodes_one_open on alert_episodes (rule_id) where resolved_at is null;
