-- Upgrade: expand
-- The key ring has no first key: each key of the ring is known by its own fingerprint, and a
-- change of the ring (a key added or removed) moves the session's ring version on. The cookie
-- carries the version it was sealed with: a copy sealed before the change no longer counts, so
-- every copy of the old cookie stops at once while the session goes on with the new one.
alter table sessions add column ring_version integer not null default 0;
