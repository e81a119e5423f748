-- Upgrade: contract, works with builds from 0022_rollup_stores_unreached
-- (Only its new tables are forced under row-level security, and no build before it reads them: every build that knows 0022 keeps working.)
-- Alert e-mail has a bound over time (ALERT_MAIL_PER_HOUR, server/alerts/mail-cap.ts): the e-mails
-- a store sent in each hour, counted whatever rules sent them (deleting and recreating rules resets
-- nothing), and those held back past the bound, one row per alert and address, which that hour's
-- summary counts ("12 alerts held back, see the inbox"). Both are store tables under row-level
-- security, like every other.
create table alert_mail_hours (
  store_url text not null,
  hour timestamptz not null,
  sent integer not null,
  primary key (store_url, hour)
);

create table alert_mail_held (
  notification_id text not null,
  email text not null,
  organization_id text not null,
  store_url text not null,
  hour timestamptz not null,
  primary key (notification_id, email)
);
create index alert_mail_held_by_hour on alert_mail_held (store_url, hour, email);

grant select, insert, update, delete on alert_mail_hours, alert_mail_held to dashboard_app, dashboard_maintenance;

do $$
declare
  store_table text;
begin
  foreach store_table in array array['alert_mail_hours', 'alert_mail_held'] loop
    execute format('alter table %I enable row level security', store_table);
    execute format('alter table %I force row level security', store_table);
    execute format(
      $policy$create policy store_reach on %I
        using (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))
        with check (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))$policy$,
      store_table);
    execute format(
      $policy$create policy across_stores on %I
        using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance')$policy$,
      store_table);
  end loop;
end $$;
