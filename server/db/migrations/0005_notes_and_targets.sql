-- Context on charts and goals, shared in an organization, per store.
-- Notes: a date or a range of store-local dates with a short text; edited and deleted by their author.
create table notes (
  id text primary key,
  organization_id text not null,
  store_url text not null,
  start_date date not null,
  end_date date not null check (end_date >= start_date),
  text text not null,
  author_email text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index notes_by_store on notes (organization_id, store_url, start_date);

-- A monthly revenue target per store, for the whole store (channel '') or one channel; the
-- latest one set counts, with who set it and when.
create table revenue_targets (
  organization_id text not null,
  store_url text not null,
  month text not null check (month ~ '^\d{4}-(0[1-9]|1[0-2])$'),
  channel text not null default '',
  amount numeric not null check (amount > 0),
  currency text not null,
  set_by_email text not null,
  set_at timestamptz not null,
  primary key (organization_id, store_url, month, channel)
);
