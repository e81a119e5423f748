-- Upgrade: expand
-- (A build before it marks every held day used on each view and evicts days on each read: it never reads this table.)
-- When a store's held month (per attribution and key) was last used by a view: a warm view writes at most one row per month it shows, and only when the month's
-- last use is an hour old; the daily eviction orders these rows, never the days themselves
-- (docs/decisions/rollups.md, "Bounds"). A row names a store, a month and times, nothing about a key.
create table rollup_month_use (
  store_url text not null,
  source text not null,
  filter_key text not null default '',
  month date not null,
  used_at timestamptz not null,
  primary key (store_url, source, filter_key, month)
);
select dashboard_store_table('rollup_month_use');
