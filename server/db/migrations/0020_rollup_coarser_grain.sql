-- A coarser grain next to the rollup cells (docs/decisions/rollups.md, "The grain"), so that a
-- warm year sums thousands of rows rather than every cell:
--  * rollup_day_channels: a held day's cells summed by channel, written with the cells;
--  * rollup_product_months: a calendar month's cells summed by product, kept only while every
--    day of the month is held under its key, and dropped by PostgreSQL itself as soon as one of
--    those days is written, rewritten or deleted (the trigger below), so that it never disagrees
--    with the cells whichever path changes them.
create table rollup_day_channels (
  store_url text not null,
  source text not null,
  filter_key text not null,
  day date not null,
  channel text not null,
  row_count integer not null,
  orders numeric not null,
  units numeric not null,
  revenue numeric not null,
  primary key (store_url, source, filter_key, day, channel),
  foreign key (store_url, source, filter_key, day) references rollup_days (store_url, source, filter_key, day) on delete cascade
);

create table rollup_product_months (
  store_url text not null,
  source text not null,
  filter_key text not null,
  -- The month's first day.
  month date not null,
  product_id text not null,
  row_count integer not null,
  orders numeric not null,
  units numeric not null,
  revenue numeric not null,
  -- The product's first row in the month: days since 1970 × 1e9 + its place in its day.
  first_key bigint not null,
  -- The month's cells of the product, and how many name a name and a SKU, with their extremes:
  -- a name is the product's own when every cell names the same one.
  cells integer not null,
  names integer not null,
  min_name text,
  max_name text,
  skus integer not null,
  min_sku text,
  max_sku text,
  primary key (store_url, source, filter_key, month, product_id)
);

create function rollup_drop_product_month() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from rollup_product_months
    where store_url = old.store_url and source = old.source and filter_key = old.filter_key
      and month = date_trunc('month', old.day)::date;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    delete from rollup_product_months
    where store_url = new.store_url and source = new.source and filter_key = new.filter_key
      and month = date_trunc('month', new.day)::date;
  end if;
  return null;
end $$;

-- Every change of a held day but its last use (touchDays, on every view) drops its month's row.
create trigger rollup_days_drop_product_month
  after insert or delete or update of store_url, source, filter_key, day, currency, row_count, orders, units, revenue, filled_at
  on rollup_days for each row execute function rollup_drop_product_month();

-- Row-level security as the other rollup tables have it (migration 0013), with the reach read once
-- per statement (migration 0015).
grant select, insert, update, delete on rollup_day_channels, rollup_product_months to dashboard_app, dashboard_maintenance;

do $$
declare
  store_table text;
begin
  foreach store_table in array array['rollup_day_channels', 'rollup_product_months'] loop
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

-- Days held before this migration get their channel sums now (across stores: the owner sees no
-- row of these tables); their months are built by the next view that finds them whole.
set local role dashboard_maintenance;
insert into rollup_day_channels (store_url, source, filter_key, day, channel, row_count, orders, units, revenue)
select store_url, source, filter_key, day, channel, sum(row_count), sum(orders), sum(units), sum(revenue)
from rollup_cells group by store_url, source, filter_key, day, channel;
reset role;
