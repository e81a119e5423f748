-- Upgrade: contract, works with builds from 0025_scope_by_construction
-- The last places where scope rested on care (docs/decisions/row-level-security.md).

-- A store URL is never empty: rows no store owns (old deliveries whose key names nothing left)
-- are kept at '', and no reach may name it. New rows must name a store; rows already at '' stay
-- where they are (NOT VALID: checked for every row written from now on).
create or replace function dashboard_reach() returns text[] language sql stable as $$
  select coalesce(array(
    select value from jsonb_array_elements_text(coalesce(nullif(current_setting('dashboard.reach', true), ''), '[]')::jsonb) as value
    where value <> ''), '{}')
$$;
do $$
declare
  store_table text;
begin
  for store_table in
    select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
    where c.table_schema = current_schema() and c.column_name = 'store_url' and t.table_type = 'BASE TABLE'
  loop
    execute format('alter table %I add constraint %I check (store_url <> %L) not valid', store_table, store_table || '_store_url_named', '');
  end loop;
end $$;

-- The job queue under row-level security: the application sees the jobs of its reach and the
-- jobs of no store (the planner, the purges); the queue's own bookkeeping (claims, leases, ends,
-- pruning) runs across stores as dashboard_maintenance.
alter table jobs enable row level security;
alter table jobs force row level security;
create policy store_reach on jobs
  using (current_user = 'dashboard_app' and (store_url is null or store_url = any ((select dashboard_reach())::text[])))
  with check (current_user = 'dashboard_app' and (store_url is null or store_url = any ((select dashboard_reach())::text[])));
create policy across_stores on jobs using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance');

-- A key ring's rows belong to the session that holds it: the application sees only the rows of
-- the session bound to its transaction (dashboard.session); a key refused upstream leaves every
-- ring holding it across sessions, as dashboard_maintenance.
alter table session_keys enable row level security;
alter table session_keys force row level security;
create policy own_session on session_keys
  using (current_user = 'dashboard_app' and session_id = current_setting('dashboard.session', true))
  with check (current_user = 'dashboard_app' and session_id = current_setting('dashboard.session', true));
create policy across_stores on session_keys
  using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance');

-- The migrations' own ledger and the database's secrets are the owner's: neither role reads or writes them.
revoke all on schema_migrations, dashboard_secrets from dashboard_app, dashboard_maintenance;

-- The organization's daily "Send now" limit counts its presses in every store without reading
-- any store's rows: each press is also kept here, by organization and time only.
create table organization_send_now (
  organization_id text not null,
  at timestamptz not null
);
create index organization_send_now_by_time on organization_send_now (organization_id, at desc);
grant select, insert, update, delete on organization_send_now to dashboard_app, dashboard_maintenance;
set local role dashboard_maintenance;
insert into organization_send_now (organization_id, at) select organization_id, at from send_now_presses;
reset role;
