-- The stores whose rollups no key reaches any more, and since when the daily retention purge has
-- seen it so (docs/decisions/rollups.md, "Bounds"): a store unreached for ROLLUP_RETENTION_DAYS
-- loses its rollups. A row names a store and a time, nothing about a key.
create table rollup_stores_unreached (
  store_url text primary key,
  since timestamptz not null
);

grant select, insert, update, delete on rollup_stores_unreached to dashboard_app, dashboard_maintenance;

-- Row-level security as every other store table has it; only the purge (dashboard_maintenance) writes it.
alter table rollup_stores_unreached enable row level security;
alter table rollup_stores_unreached force row level security;
create policy store_reach on rollup_stores_unreached
  using (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))
  with check (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]));
create policy across_stores on rollup_stores_unreached
  using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance');
