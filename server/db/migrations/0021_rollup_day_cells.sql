-- A day's cells as one row of arrays (docs/decisions/rollups.md, "The grain"): a store-day of a
-- large catalogue holds thousands of cells, and one row per cell cost a heap tuple, a six-column
-- primary key entry, a foreign key check and a row-level security check each. As one row per day
-- the same cells are written as 11 array values (compressed by PostgreSQL's TOAST), about a tenth
-- of the size, and a day is deleted or replaced as one row.
--
-- `rollup_cells` stays, as a view with the same columns, so every statement that sums cells reads
-- them as before; row-level security applies through it (security_invoker) as on every store table.
create table rollup_day_cells (
  store_url text not null,
  source text not null,
  filter_key text not null,
  day date not null,
  -- Element i of every array is one cell: in the order the day's rows first named its channel and product.
  channel text[] not null,
  product_id text[] not null,
  product_name text[] not null,
  product_sku text[] not null,
  first_row integer[] not null,
  currency text[] not null,
  currency_row integer[] not null,
  row_count integer[] not null,
  orders numeric[] not null,
  units numeric[] not null,
  revenue numeric[] not null,
  primary key (store_url, source, filter_key, day),
  foreign key (store_url, source, filter_key, day) references rollup_days (store_url, source, filter_key, day) on delete cascade
);

-- The cells held before this migration, as rows of arrays. The table's owner reads them past its
-- own row-level security, which is no longer forced on a table about to go.
alter table rollup_cells no force row level security;
insert into rollup_day_cells
  select store_url, source, filter_key, day, array_agg(channel order by first_row), array_agg(product_id order by first_row),
    array_agg(product_name order by first_row), array_agg(product_sku order by first_row), array_agg(first_row order by first_row),
    array_agg(currency order by first_row), array_agg(currency_row order by first_row), array_agg(row_count order by first_row),
    array_agg(orders order by first_row), array_agg(units order by first_row), array_agg(revenue order by first_row)
  from rollup_cells group by store_url, source, filter_key, day;
drop table rollup_cells;

create view rollup_cells with (security_invoker = true) as
  select d.store_url, d.source, d.filter_key, d.day, c.channel, c.product_id, c.product_name, c.product_sku, c.first_row, c.currency,
    c.currency_row, c.row_count, c.orders, c.units, c.revenue
  from rollup_day_cells d
  cross join lateral unnest(d.channel, d.product_id, d.product_name, d.product_sku, d.first_row, d.currency, d.currency_row,
    d.row_count, d.orders, d.units, d.revenue)
    as c(channel, product_id, product_name, product_sku, first_row, currency, currency_row, row_count, orders, units, revenue);

grant select, insert, update, delete on rollup_day_cells to dashboard_app, dashboard_maintenance;
grant select on rollup_cells to dashboard_app, dashboard_maintenance;

alter table rollup_day_cells enable row level security;
alter table rollup_day_cells force row level security;
create policy store_reach on rollup_day_cells
  using (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]))
  with check (current_user = 'dashboard_app' and store_url = any ((select dashboard_reach())::text[]));
create policy across_stores on rollup_day_cells
  using (current_user = 'dashboard_maintenance') with check (current_user = 'dashboard_maintenance');
