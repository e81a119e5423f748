-- The reach policy reads dashboard.reach once per statement, not once per row. Written as
-- `store_url = any (dashboard_reach())`, the function (which parses the reach's JSON) ran for
-- every row a statement touched: counting a million rows of one store under the policy took
-- 4.7 s on PostgreSQL 15, so a warm year of a large store's day rollups ran past the statement
-- timeout. As a scalar subquery it is evaluated once (0.27 s for the same count). What the
-- policy admits is unchanged.
do $$
declare
  store_table text;
begin
  for store_table in
    select tablename from pg_policies where schemaname = current_schema() and policyname = 'store_reach'
  loop
    execute format('drop policy store_reach on %I', store_table);
    execute format(
      $policy$create policy store_reach on %I
        using (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))
        with check (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))$policy$,
      store_table);
  end loop;
end $$;
