-- Upgrade: contract, works with builds from 0029_rollup_month_use
-- Row-level security forced on rollup_month_use as on every store table (docs/decisions/row-level-security.md).
-- Builds before 0029 never read the table; the builds from 0029 read it through the policies 0029 made.
alter table rollup_month_use force row level security;
