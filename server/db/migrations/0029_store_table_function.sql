-- Upgrade: expand
-- A store table's access, written once (docs/decisions/row-level-security.md): a later migration
-- that creates a table with a store_url column calls `select dashboard_store_table('name');`.
-- It grants the two roles their rows, forces row-level security, and creates the two policies
-- every store table has: dashboard_app reaches the rows of the stores bound for its transaction
-- (the reach, read once per statement), dashboard_maintenance every row on its named paths.
-- A store URL is never empty ('' is no store, and no reach names it).
create or replace function dashboard_store_table(store_table regclass) returns void language plpgsql as $$
begin
  execute format('grant select, insert, update, delete on %s to dashboard_app, dashboard_maintenance', store_table);
  execute format('alter table %s enable row level security', store_table);
  execute format('alter table %s force row level security', store_table);
  execute format($policy$create policy store_reach on %s
    using (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))
    with check (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))$policy$, store_table);
  execute format($policy$create policy across_stores on %s
    using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance')$policy$, store_table);
  execute format('alter table %s add constraint %I check (store_url <> %L)', store_table, store_table::text || '_store_url_named', '');
end $$;
revoke all on function dashboard_store_table(regclass) from public;
