-- What a digest's last send covered, so the next one names only the days restated since then:
-- the slot last sent, the moment its restated days were looked up (as_of), and the as_of of the
-- send before it (a retry of the same slot looks back as far as its first attempt did).
alter table digest_schedules
  add column last_slot text,
  add column last_as_of timestamptz,
  add column previous_as_of timestamptz;
