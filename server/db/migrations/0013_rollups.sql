-- Day rollups of a store's product metric rows, shared by every instance: per store, attribution
-- (dimension_source) and store-local day, the rows summed by channel and product. Nothing about
-- a key is kept here: only the store's own figures.
create table rollup_days (
  store_url text not null,
  source text not null check (source in ('conversion', 'first_touch')),
  day date not null,
  -- Currency of the day's first row that names one.
  currency text,
  row_count integer not null,
  orders numeric not null,
  units numeric not null,
  revenue numeric not null,
  -- Estimated storage of the day's cells, counted against ROLLUP_BUDGET_MB.
  bytes integer not null,
  filled_at timestamptz not null,
  used_at timestamptz not null,
  primary key (store_url, source, day)
);
create index rollup_days_by_use on rollup_days (used_at);

create table rollup_cells (
  store_url text not null,
  source text not null,
  day date not null,
  channel text not null,
  product_id text not null,
  -- Name and SKU of the cell's first row, and that row's place in the day's rows.
  product_name text,
  product_sku text,
  first_row integer not null,
  -- The first row of the cell that names a currency, and its place.
  currency text,
  currency_row integer,
  row_count integer not null,
  orders numeric not null,
  units numeric not null,
  revenue numeric not null,
  primary key (store_url, source, day, channel, product_id),
  foreign key (store_url, source, day) references rollup_days (store_url, source, day) on delete cascade
);

-- A day being read upstream by one instance: others wait for it instead of reading it too.
create table rollup_claims (
  store_url text not null,
  source text not null,
  day date not null,
  claimed_until timestamptz not null,
  primary key (store_url, source, day)
);

-- A closed day whose figures changed when it was read again.
create table rollup_restatements (
  id text primary key,
  store_url text not null,
  source text not null,
  day date not null,
  detected_at timestamptz not null,
  currency text,
  revenue_before numeric not null,
  revenue_after numeric not null,
  orders_before numeric not null,
  orders_after numeric not null,
  units_before numeric not null,
  units_after numeric not null,
  -- [{ "key", "change" }] by largest revenue change first.
  channels jsonb not null,
  -- [{ "key", "name", "change" }] by largest revenue change first.
  products jsonb not null
);
create index rollup_restatements_by_store on rollup_restatements (store_url, day);

-- Row-level security as every other store table has it (migration 0011, docs/decisions/row-level-security.md):
-- the rollups belong to their store, so any reach that holds the store reads and writes them as
-- dashboard_app; the deployment-wide eviction and usage run as dashboard_maintenance.
grant select, insert, update, delete on rollup_days, rollup_cells, rollup_claims, rollup_restatements
  to dashboard_app, dashboard_maintenance;

do $$
declare
  store_table text;
begin
  foreach store_table in array array['rollup_days', 'rollup_cells', 'rollup_claims', 'rollup_restatements'] loop
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
