-- Saved-view names are compared by a key the dashboard computes (Unicode case folding of the
-- NFC form: "Straße" and "STRASSE" are one name). Views saved earlier take their lower-case name.
alter table saved_views add column name_key text;
update saved_views set name_key = lower(name);
alter table saved_views alter column name_key set not null;
drop index saved_views_unique_name;
create unique index saved_views_unique_name on saved_views (organization_id, store_url, name_key) where deleted_at is null;
