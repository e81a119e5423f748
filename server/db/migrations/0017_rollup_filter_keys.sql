-- Day rollups per filter key (docs/decisions/rollups.md): a view filtered by country, device
-- type, OS, browser or ad keeps its own days and cells, under the canonical key of those
-- upstream-only filters. '' is the unfiltered read: every row held before this migration.
-- Row-level security is unchanged: the policies name store_url only.
alter table rollup_cells drop constraint rollup_cells_store_url_source_day_fkey;

alter table rollup_days add column filter_key text not null default '';
alter table rollup_cells add column filter_key text not null default '';
alter table rollup_claims add column filter_key text not null default '';

alter table rollup_days drop constraint rollup_days_pkey;
alter table rollup_days add primary key (store_url, source, filter_key, day);
alter table rollup_cells drop constraint rollup_cells_pkey;
alter table rollup_cells add primary key (store_url, source, filter_key, day, channel, product_id);
alter table rollup_claims drop constraint rollup_claims_pkey;
alter table rollup_claims add primary key (store_url, source, filter_key, day);

alter table rollup_cells add constraint rollup_cells_day_fkey foreign key (store_url, source, filter_key, day)
  references rollup_days (store_url, source, filter_key, day) on delete cascade;
