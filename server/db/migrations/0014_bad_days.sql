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

-- The two new store tables get the row-level security of 0011: rows of the transaction's reach
-- to dashboard_app, every store to dashboard_maintenance (the purge, an unsubscribe token).
grant select, insert, update, delete on mail_suppressions, send_now_presses to dashboard_app, dashboard_maintenance;
grant usage, select on sequence send_now_presses_id_seq to dashboard_app, dashboard_maintenance;
do $$
declare
  store_table text;
begin
  foreach store_table in array array['mail_suppressions', 'send_now_presses'] loop
    execute format('alter table %I enable row level security', store_table);
    execute format('alter table %I force row level security', store_table);
    execute format(
      $policy$create policy store_reach on %I
        using (current_user = 'dashboard_app' and store_url = any (dashboard_reach()))
        with check (current_user = 'dashboard_app' and store_url = any (dashboard_reach()))$policy$,
      store_table);
    execute format(
      $policy$create policy across_stores on %I
        using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance')$policy$,
      store_table);
  end loop;
end $$;

-- How a grant's key is sealed: 1 bound to the grant id only, 2 bound to the grant id, organization,
-- store and key fingerprint. A version 1 grant is sealed again (as 2) the next time it is used.
alter table grants add column seal_version smallint not null default 1;

-- The unsubscribe link of a store's alert e-mails, one per address and store: it suppresses (or
-- lifts the suppression of) that address for the store's mail, as a digest's link does.
create table mail_unsubscribe_links (
  token text primary key,
  organization_id text not null,
  store_url text not null,
  email text not null,
  unique (organization_id, store_url, email)
);
grant select, insert, update, delete on mail_unsubscribe_links to dashboard_app, dashboard_maintenance;
alter table mail_unsubscribe_links enable row level security;
alter table mail_unsubscribe_links force row level security;
create policy store_reach on mail_unsubscribe_links
  using (current_user = 'dashboard_app' and store_url = any (dashboard_reach()))
  with check (current_user = 'dashboard_app' and store_url = any (dashboard_reach()));
create policy across_stores on mail_unsubscribe_links
  using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance');

-- The inbox also says when a rule is paused because its saved view was deleted.
alter table notifications drop constraint notifications_kind_check;
alter table notifications add constraint notifications_kind_check check (kind in ('alert_fired', 'alert_resolved', 'rule_paused'));
