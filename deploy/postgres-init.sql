-- Run once by PostgreSQL's image when its data volume is new (/docker-entrypoint-initdb.d), as its
-- administrator. The dashboard connects as `dashboard`: the owner of its database and of the schema
-- `public`, neither a superuser nor able to create roles. The two roles every query runs as are
-- made here (role names are the cluster's: made only when missing) and granted to it, so its
-- migrations find them (docs/decisions/row-level-security.md). Replace the example password before
-- using it beyond a trial. scripts/container.test.ts runs this file against PostgreSQL.
create role dashboard login password 'dashboard' nosuperuser nocreaterole nocreatedb;
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'dashboard_app') then create role dashboard_app nologin; end if;
  if not exists (select 1 from pg_roles where rolname = 'dashboard_maintenance') then create role dashboard_maintenance nologin; end if;
end $$;
grant dashboard_app, dashboard_maintenance to dashboard;
create database dashboard owner dashboard;
\connect dashboard
alter schema public owner to dashboard;
