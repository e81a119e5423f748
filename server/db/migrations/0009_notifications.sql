-- The in-app inbox: notifications of an organization (an alert fired or resolved), read per user.
create table notifications (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  rule_id text,
  episode_id text,
  kind text not null check (kind in ('alert_fired', 'alert_resolved')),
  title text not null,
  body jsonb not null,
  created_at timestamptz not null
);
create index notifications_by_organization on notifications (organization_id, created_at desc);

create table notification_reads (
  notification_id text not null references notifications (id) on delete cascade,
  reader_email text not null,
  read_at timestamptz not null,
  primary key (notification_id, reader_email)
);

-- Each webhook attempt of a notification, with its outcome (sent, not_sent, unknown) and status.
create table webhook_deliveries (
  id text primary key,
  notification_id text not null references notifications (id) on delete cascade,
  url text not null,
  attempt integer not null,
  outcome text not null check (outcome in ('sent', 'not_sent', 'unknown')),
  status integer,
  detail text,
  at timestamptz not null
);
create index webhook_deliveries_by_notification on webhook_deliveries (notification_id);
