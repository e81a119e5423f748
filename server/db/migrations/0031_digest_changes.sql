-- Upgrade: contract, works with builds from 0028_portfolio_digests
-- (A build before it never records the new action; it lists the entries of those that do as any other.)
-- Activity records a scheduled digest's change (its cadence, time or recipients) like its creation and deletion.
alter table audit_entries drop constraint audit_entries_action_check;
alter table audit_entries add constraint audit_entries_action_check check (action in (
  'tracking-connection.remove', 'campaign-group.clone',
  'alert-rule.create', 'alert-rule.change', 'alert-rule.delete', 'alert-rule.pause',
  'digest.create', 'digest.change', 'digest.delete', 'digest.send-now',
  'delivery.send-again', 'delivery.arrived'));
