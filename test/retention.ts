/** The retention lifetimes (days) the settings give by default, for the purge's tests and benchmark. */
export const DEFAULT_RETENTION = {
  mailBodyDays: 30,
  deliveriesDays: 90,
  notificationsDays: 400,
  webhookAttemptsDays: 30,
  grantNoticesDays: 90,
  deletedRulesDays: 30,
  dataChangesDays: 400,
  rollupStoreDays: 30,
};
