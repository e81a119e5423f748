-- Row-level security, the second wall behind the pipeline's scope check (docs/decisions/row-level-security.md).
-- The dashboard's queries run as dashboard_app (SET LOCAL ROLE in each transaction) with the
-- transaction's reach in the setting dashboard.reach (a JSON array of store URLs, set with
-- set_config(..., true)); a row of a store table is seen, written or deleted only when its
-- store_url is in that reach. No reach set: no row. The few deliberate cross-store paths (the
-- digest planner, the alert scan, the purge) run as dashboard_maintenance, never by default.
-- Role names are cluster-wide: several databases of one cluster share them, so each is created
-- only when missing, and a concurrent create by another database's migration is tolerated.
do $$
declare
  name text;
begin
  foreach name in array array['dashboard_app', 'dashboard_maintenance'] loop
    if not exists (select 1 from pg_roles where rolname = name) then
      begin
        execute format('create role %I nologin', name);
      exception when duplicate_object or unique_violation then
        null;
      end;
    end if;
    -- The migrating (login) role must be able to SET ROLE to it (already granted by an administrator: nothing to do).
    if not exists (select 1 from pg_roles where rolname = current_user and rolsuper) and not pg_has_role(current_user, name, 'member') then
      begin
        execute format('grant %I to %I', name, current_user);
      exception when duplicate_object or unique_violation then
        null;
      end;
    end if;
  end loop;
end $$;

grant usage on schema public to dashboard_app, dashboard_maintenance;
grant select, insert, update, delete on all tables in schema public to dashboard_app, dashboard_maintenance;
grant usage, select on all sequences in schema public to dashboard_app, dashboard_maintenance;
-- Tables and sequences later migrations create (as the same owner) get the same grants.
alter default privileges in schema public grant select, insert, update, delete on tables to dashboard_app, dashboard_maintenance;
alter default privileges in schema public grant usage, select on sequences to dashboard_app, dashboard_maintenance;

-- The reach of the current transaction: the store URLs in dashboard.reach ('' or unset: none).
create function dashboard_reach() returns text[] language sql stable as $$
  select coalesce(array(select jsonb_array_elements_text(coalesce(nullif(current_setting('dashboard.reach', true), ''), '[]')::jsonb)), '{}')
$$;

do $$
declare
  store_table text;
begin
  foreach store_table in array array[
    'audit_entries', 'idempotency_records', 'clone_attempts', 'saved_views', 'notes', 'revenue_targets',
    'grants', 'grant_notices', 'deliveries', 'digest_schedules', 'digest_recipients',
    'alert_rules', 'alert_episodes', 'notifications', 'notification_reads', 'webhook_deliveries'
  ] loop
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
