-- An address that unsubscribed from a store's mail: no digest or alert e-mail of that store
-- reaches it, even when someone adds it again, until it opts in again through a link it received.
create table mail_suppressions (
  organization_id text not null,
  store_url text not null,
  email text not null,
  suppressed_at timestamptz not null,
  primary key (organization_id, store_url, email)
);

-- Each "Send now" accepted, for its limits: per person and digest, per organization and day.
create table send_now_presses (
  id bigserial primary key,
  organization_id text not null,
  store_url text not null,
  schedule_id text not null,
  person text not null,
  at timestamptz not null
);
create index send_now_presses_by_person on send_now_presses (schedule_id, person, at desc);
create index send_now_presses_by_organization on send_now_presses (organization_id, at desc);

-- Activity also records changes to alert rules and digests, with who made them.
alter table audit_entries drop constraint audit_entries_action_check;
alter table audit_entries add constraint audit_entries_action_check check (action in (
  'tracking-connection.remove', 'campaign-group.clone',
  'alert-rule.create', 'alert-rule.change', 'alert-rule.delete', 'alert-rule.pause',
  'digest.create', 'digest.delete', 'digest.send-now'));

-- The last period the scheduled check judged for a rule: a daily rule is judged once a day, an
-- hourly one once an hour, however often the check runs.
alter table alert_rules add column last_judged_period text;
