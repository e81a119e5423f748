-- The key ring: every key a session holds, by fingerprint (the keys themselves stay sealed in the
-- session cookie). A key counts for its session only while its row is here and not dropped, so
-- removing a key, or an upstream 401 for it, ends its reach for every copy of the cookie at once.
create table session_keys (
  session_id text not null references sessions (id) on delete cascade,
  key_fingerprint text not null,
  -- A short, non-secret name for the key: its store and a few characters of its fingerprint.
  label text not null,
  store_urls text[] not null default '{}',
  added_at timestamptz not null,
  dropped_at timestamptz,
  -- removed (by its holder), or the upstream's refusal: key_expired, key_revoked, key_invalid.
  dropped_reason text,
  -- When the holder was told about a refused key (a notice on the next page).
  noticed_at timestamptz,
  primary key (session_id, key_fingerprint)
);
create index session_keys_by_key on session_keys (key_fingerprint) where dropped_at is null;

-- Sessions opened before the ring hold one key: the one they signed in with.
insert into session_keys (session_id, key_fingerprint, label, added_at)
  select id, key_fingerprint, '', created_at from sessions where revoked_at is null;

-- Which key of the ring acted (its label, never the key).
alter table audit_entries add column key_label text;
