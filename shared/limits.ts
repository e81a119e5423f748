/**
 * The stated caps on what one store may hold and one press may start: the server refuses past
 * them in these words, and the forms say them before anyone types.
 */
export const LIMITS = {
  /** Addresses a digest or an alert rule e-mails. */
  recipients: 20,
  /** Alert rules of one store (deleted ones do not count). */
  rulesPerStore: 50,
  /** Scheduled digests of one store. */
  digestsPerStore: 50,
  /** "Send now" of one digest by one person: at most once a minute, and this many times an hour. */
  sendNowPerPersonHour: 10,
  /** "Send now" presses accepted in one organization per day (in any 24 hours). */
  sendNowPerOrganizationDay: 200,
} as const;
