-- Upgrade: expand
-- (A build before it reads a portfolio digest, which it cannot make, as a digest whose saved view was deleted, and sends nothing.)
-- A digest of several stores (the All stores table): its stores and its range instead of a saved
-- view. The schedule's own store (store_url, which row-level security follows) is the first chosen
-- store its creator had granted; each store is read through its own grant at send time.
alter table digest_schedules alter column saved_view_id drop not null;
alter table digest_schedules add column portfolio jsonb;
alter table digest_schedules add constraint digest_schedules_view_or_portfolio check (saved_view_id is not null or portfolio is not null);
