-- A run's deadline (JOBS_RUN_DEADLINE_SECONDS), set when a worker claims it: its lease is never
-- renewed past it, and a run still going then is abandoned and retried per the job's attempts.
alter table jobs add column deadline_at timestamptz;

-- A delivery left unknown waits for its owner's decision: "Send again" (a new message under
-- `resent_key`, sent once by a job) or "It arrived". Who decided and when is kept on the row, and
-- the press's Idempotency-Key, so a replay of that press answers the same and sends nothing more.
alter table deliveries add column decision text check (decision in ('send_again', 'arrived'));
alter table deliveries add column decided_by text;
alter table deliveries add column decided_at timestamptz;
alter table deliveries add column resent_key text;
alter table deliveries add column decision_request_key text;
alter table deliveries add constraint deliveries_decided_unknown check (decision is null or outcome = 'unknown');
create index deliveries_awaiting_decision on deliveries (store_url, created_at desc) where outcome = 'unknown' and decision is null;

-- Activity records these decisions with who made them.
alter table audit_entries drop constraint audit_entries_action_check;
alter table audit_entries add constraint audit_entries_action_check check (action in (
  'tracking-connection.remove', 'campaign-group.clone',
  'alert-rule.create', 'alert-rule.change', 'alert-rule.delete', 'alert-rule.pause',
  'digest.create', 'digest.delete', 'digest.send-now',
  'delivery.send-again', 'delivery.arrived'));
