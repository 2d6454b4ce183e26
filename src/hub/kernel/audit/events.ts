/**
 * The security events the hub records per user; read back through the data export and the
 * activity page, where each type needs its shown detail fields and a sentence in every language
 * (docs/activity.md).
 */
export const AUDIT_EVENT_TYPES = [
  'signup',
  'signin',
  'signin.failed',
  'signout',
  'session.refreshed',
  'session.ended',
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'sso-token.issued',
  'privacy.updated',
  'consent.recorded',
  'export.created',
  'account.disabled',
  'account.enabled',
  'password.changed',
  'email.change.requested',
  'email.changed',
  'profile.updated',
  'password.reset.requested',
  'password.reset',
  'email.verified',
  /** Kept after the erasure it records: the user id and the time, nothing else (docs/account.md). */
  'account.deleted',
  'session.reauthenticated',
  'totp.enabled',
  'totp.disabled',
  'recovery-codes.regenerated',
  'recovery-code.used',
  'signin.second-factor.failed',
  /** Billing (docs/billing.md): `source` is `administrator` (billing:set) or `stripe`. */
  'billing.plan.changed',
  'billing.checkout.started',
  'billing.portal.opened',
  'billing.invoice.paid',
  'billing.payment.failed',
  /**
   * The household plan: a group's plan changed, on each member's trail; `source` is
   * `administrator` (by hand), `subscription` (an administrator's payment) or `stripe` (it ended).
   */
  'billing.group-plan.changed',
  /**
   * An administrator's changes to the account (docs/administration.md, "Users"), on the touched
   * person's trail, `detail.by` the administrator's user id (absent from the terminal).
   */
  'account.promoted',
  'account.demoted',
  'account.name-changed',
  'account.signed-out-everywhere',
  'account.two-step-removed',
  /** The set-up link made this account the hub's first administrator (docs/administration.md); `created` when it made the account too. */
  'admin.setup',
  /**
   * An administrator's changes to the OpenID Connect clients (docs/administration.md,
   * "Applications"), on the administrator's own trail: `clientId` and `name`; `changed`, the fields.
   */
  'client.added',
  'client.changed',
  'client.removed',
  'client.secret-rotated',
  /**
   * Administration (docs/administration.md): a group's changes on its administrator's trail; a
   * membership's on the member's, naming the administrator in `by`.
   */
  'group.created',
  'group.updated',
  'group.deleted',
  'group.joined',
  'group.left',
  /** An invitation sent or withdrawn, on its administrator's trail; used, on the new account's. */
  'invitation.sent',
  'invitation.withdrawn',
  'invitation.used'
] as const
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number]

export interface AuditEventInput {
  userId: string
  type: AuditEventType
  /** The event's particulars (audience, changed fields...). Never a secret. */
  detail?: Record<string, unknown>
  ip?: string | undefined
  userAgent?: string | undefined
}
