-- Every row of a store's data names its store (store_url, never null), so that a listing reads
-- the stores of a reach and row-level security (0011) can admit rows by store. Rows that had no
-- column of their own take their parent's store.

-- Recipients of a digest: the schedule's store.
alter table digest_recipients add column store_url text;
update digest_recipients r set store_url = d.store_url from digest_schedules d where d.id = r.schedule_id;
alter table digest_recipients alter column store_url set not null;

-- Episodes of an alert rule: the rule's store.
alter table alert_episodes add column store_url text;
update alert_episodes e set store_url = r.store_url from alert_rules r where r.id = e.rule_id;
alter table alert_episodes alter column store_url set not null;

-- Reads and webhook attempts of a notification: the notification's store.
alter table notification_reads add column store_url text;
update notification_reads r set store_url = n.store_url from notifications n where n.id = r.notification_id;
alter table notification_reads alter column store_url set not null;

alter table webhook_deliveries add column store_url text;
update webhook_deliveries w set store_url = n.store_url from notifications n where n.id = w.notification_id;
alter table webhook_deliveries alter column store_url set not null;

-- The deliveries ledger: a message without a store takes it from what its key names (a digest's
-- schedule, an alert's notification, a grant). A row none of them names keeps '' (no store):
-- it stays for exactly-once (its key is never sent again) and no reach sees it.
update deliveries d set store_url = s.store_url from digest_schedules s
  where d.store_url is null and d.key like 'digest:%' and s.id = split_part(d.key, ':', 2);
update deliveries d set store_url = n.store_url from notifications n
  where d.store_url is null and d.key like 'alert:%' and n.id = split_part(d.key, ':', 2);
update deliveries d set store_url = g.store_url from grants g
  where d.store_url is null and d.key like 'grant-ended:%' and g.id = split_part(d.key, ':', 2);
update deliveries set store_url = '' where store_url is null;
alter table deliveries alter column store_url set not null;

-- The jobs queue serves every store and the dashboard itself (the planner, the purge); a job of
-- one store names it, so that the Runs page lists the jobs of a reach. A job of no store has null.
alter table jobs add column store_url text;
update jobs j set store_url = s.store_url from digest_schedules s
  where j.name = 'digest.send' and s.id = j.payload->>'scheduleId';

-- Organization-wide pages list by store now.
create index audit_entries_by_store on audit_entries (store_url, at desc, id desc);
create index notifications_by_store on notifications (store_url, created_at desc);
create index deliveries_by_store on deliveries (store_url, created_at desc);
create index jobs_by_store on jobs (store_url, created_at desc) where store_url is not null;
