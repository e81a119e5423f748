-- Upgrade: expand
-- A grant keeps its owner: renewing it never changes owner_email, and one key may hold one active
-- grant per store and owner (a colleague with the same key gets a grant of their own). Should two
-- active grants of one key, store and owner exist already, the newest stays and the others end.
set local role dashboard_maintenance;
update grants g set ended_at = now(), ended_reason = 'revoked', wrapped_data_key = ''::bytea, sealed_api_key = ''::bytea
where g.ended_at is null and exists (
  select 1 from grants n
  where n.ended_at is null and n.key_fingerprint = g.key_fingerprint and n.organization_id = g.organization_id
    and n.store_url = g.store_url and lower(n.owner_email) = lower(g.owner_email) and (n.created_at, n.id) > (g.created_at, g.id));
reset role;
create unique index grants_one_active_per_owner on grants (key_fingerprint, organization_id, store_url, lower(owner_email)) where ended_at is null;
