import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/**
 * The database as TypeScript sees it (camelCase; CamelCasePlugin maps to snake_case columns).
 * Timestamps are ISO 8601 UTC strings with milliseconds in both dialects, so they sort as text
 * and reach the API unchanged.
 */
export interface Database {
  tasks: TasksTable
  accessGrants: AccessGrantsTable
  users: UsersTable
  sessions: SessionsTable
  privacySettings: PrivacySettingsTable
  consents: ConsentsTable
  auditEvents: AuditEventsTable
  cspReports: CspReportsTable
  usedIdTokens: UsedIdTokensTable
  mailQueue: MailQueueTable
  mailTokens: MailTokensTable
  securityEventOutbox: SecurityEventOutboxTable
  receivedSecurityEvents: ReceivedSecurityEventsTable
  totpCredentials: TotpCredentialsTable
  recoveryCodes: RecoveryCodesTable
  loginChallenges: LoginChallengesTable
  passkeys: PasskeysTable
  passkeyChallenges: PasskeyChallengesTable
  knownDevices: KnownDevicesTable
  oidcProviderRecords: OidcProviderRecordsTable
  oidcClients: OidcClientsTable
  tasksSessions: TasksSessionsTable
  billingPlans: BillingPlansTable
  billingSubscriptions: BillingSubscriptionsTable
  billingCustomers: BillingCustomersTable
  billingInvoices: BillingInvoicesTable
  billingWebhookEvents: BillingWebhookEventsTable
  billingGroupPlans: BillingGroupPlansTable
  groups: GroupsTable
  groupMembers: GroupMembersTable
  invitations: InvitationsTable
  setupTokens: SetupTokensTable
}

export interface TasksTable {
  id: string
  title: string
  description: string
  status: string
  assignee: string
  createdAt: string
  updatedAt: string
}

export interface AccessGrantsTable {
  id: string
  userId: string
  applicationId: string
  /** JSON array of role names. */
  roles: string
  /** JSON array of permission names. */
  permissions: string
  grantedBy: string
  createdAt: string
}

/** The hub's built-in identity provider accounts. */
export interface UsersTable {
  id: string
  /** Normalised: trimmed and lower case. */
  email: string
  /** argon2id, PHC string format; null for an account made with a passkey and no password yet (docs/account.md). */
  passwordHash: string | null
  /** 0 or 1 (an integer in both dialects). */
  disabled: number
  /** 0 or 1: a link mailed to the address was used (see docs/account.md). */
  emailVerified: Generated<number>
  createdAt: string
  updatedAt: string
  /** The name the person chose to be shown by (1–64 visible characters), null until then. */
  displayName: string | null
  /** The language the person chose (`en` or `es`); null when they chose none, and pages and mail follow the browser. */
  locale: string | null
  /** `member` or `admin` (docs/administration.md). */
  role: Generated<string>
}

/** The hub's server-side sessions. */
export interface SessionsTable {
  id: string
  userId: string
  email: string
  /** 1 when the identity provider had verified `email` at sign-in (never yet for the built-in one), else 0. */
  emailVerified: number
  userAgent: string
  createdAt: string
  /** The absolute end of the session; refreshes never go past it. */
  expiresAt: string
  /** Updated on refresh (every 45 minutes), not on every request, to keep the hot path read-only. */
  lastSeenAt: string
  /** The last proof of who holds it: sign-in or reauthentication (null for sessions older than the column). */
  authenticatedAt: string | null
}

/** ID tokens set-cookie has accepted, kept until they expire so that none is accepted twice. */
export interface UsedIdTokensTable {
  /** SHA-256 of the token's `jti`, or of its signed claims when it has none. */
  replayKey: string
  /** The token's expiry plus the clock tolerance: after it the token fails verification anyway. */
  acceptedUntil: string
}

export interface PrivacySettingsTable {
  userId: string
  /** The JSON settings document. */
  document: string
  activityLogDays: number
  updatedAt: string
}

export interface ConsentsTable {
  id: string
  userId: string
  purpose: string
  /** 1 granted, 0 refused or withdrawn. */
  granted: number
  version: string | null
  recordedAt: string
}

export interface AuditEventsTable {
  id: string
  userId: string
  type: string
  /** JSON object with the event's particulars. */
  detail: string
  ip: string | null
  userAgent: string | null
  createdAt: string
}

/** Mail waiting to be sent, or given up on (see src/hub/kernel/mail/queue.ts). */
export interface MailQueueTable {
  id: string
  /** The account the mail concerns, if any. */
  userId: string | null
  recipient: string
  subject: string
  textBody: string
  htmlBody: string
  createdAt: string
  /** `pending` until sent (then the row is deleted) or given up on (`failed`). */
  status: 'pending' | 'failed'
  attempts: number
  /** Its next retry, or the end of a sender's claim on it. */
  nextAttemptAt: string
  /** Why the last attempt failed (the SMTP server's answer, never the body). */
  lastError: string | null
}

/** Tokens sent by mail (see src/hub/kernel/mail/mail-tokens.ts): the newest per account and purpose. */
export interface MailTokensTable {
  userId: string
  purpose: string
  /** SHA-256 of the token, hex. */
  tokenHash: string
  createdAt: string
  expiresAt: string
  usedAt: string | null
  /** For an email change: the address the account moves to when the token is used. */
  newEmail: string | null
}

/** An account's authenticator-app secret (see src/hub/features/two-step/): pending until `confirmedAt`. */
export interface TotpCredentialsTable {
  userId: string
  /** AES-256-GCM of the secret (src/hub/kernel/security/secret-box.ts). */
  secretCiphertext: string
  createdAt: string
  confirmedAt: string | null
  /** The newest time step a code was accepted for. */
  lastUsedStep: number | null
}

/** An account's unused recovery codes. */
export interface RecoveryCodesTable {
  /** SHA-256 of the normalised code, hex. */
  codeHash: string
  userId: string
  createdAt: string
}

/** Logins past their password step, waiting for the second factor. */
export interface LoginChallengesTable {
  /** SHA-256 of the challenge, hex. */
  challengeHash: string
  userId: string
  /** SHA-256 of the password hash the password step matched. */
  passwordFingerprint: string
  /** Second-factor attempts made on it (at most five). */
  attempts: Generated<number>
  createdAt: string
  expiresAt: string
}

/** A person's passkeys (WebAuthn credentials; see src/hub/features/passkeys/). */
export interface PasskeysTable {
  id: string
  userId: string
  /** base64url, as browsers name the credential. */
  credentialId: string
  /** The COSE public key, base64url. */
  publicKey: string
  /** The authenticator's signature counter; PostgreSQL's driver reads a bigint as a string. */
  signCount: ColumnType<number | string, number, number>
  /** JSON array of transports ("internal", "usb"...). */
  transports: string
  aaguid: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/** Passkey ceremonies begun and not finished: each challenge is used once, within its lifetime. */
export interface PasskeyChallengesTable {
  /** SHA-256 of the challenge, base64url. */
  challengeHash: string
  purpose: 'registration' | 'authentication' | 'new-account'
  /**
   * A registration's account and session (its handle); for a new account's, the id it will have and
   * what its maker holds (their invitation's id); null for a sign-in.
   */
  userId: string | null
  sessionHandle: string | null
  expiresAt: string
}

/** Security events waiting for an application's 202 (see src/hub/kernel/security-events/outbox.ts). */
export interface SecurityEventOutboxTable {
  /** The event's `jti`. */
  id: string
  applicationId: string
  /** The event type URI. */
  eventType: string
  /** The subject of the event. */
  userId: string
  /** When the change happened (the event's `toe`). */
  createdAt: string
  attempts: number
  /** Its next retry, or the end of a sender's claim on it. */
  nextAttemptAt: string
  /** Why the last attempt failed (the application's status and `err`), never a token. */
  lastError: string | null
}

/** Security events the task manager has accepted, kept while a replay of them could still verify. */
export interface ReceivedSecurityEventsTable {
  jti: string
  receivedAt: string
}

export type TaskRow = Selectable<TasksTable>
export type AccessGrantRow = Selectable<AccessGrantsTable>
export type NewAccessGrantRow = Insertable<AccessGrantsTable>
export type UserRow = Selectable<UsersTable>
export type SessionRow = Selectable<SessionsTable>

/** One distinct CSP violation (see docs/csp-reports.md); URIs are stored without query or fragment. */
export interface CspReportsTable {
  fingerprint: string
  documentUri: string
  directive: string
  blockedUri: string | null
  sourceFile: string | null
  lineNumber: number | null
  /** The user agent of the latest report. */
  userAgent: string | null
  count: number
  firstSeen: string
  lastSeen: string
}

/** The devices an account has signed in from, by the name their user agent gives (see known-devices.ts). */
export interface KnownDevicesTable {
  userId: string
  /** "Chrome on Linux"; empty when the user agent names nothing. */
  device: string
  firstSeenAt: string
  lastSeenAt: string
}

/** The OpenID Connect provider's models (codes, tokens, grants, sessions), keyed by model and id. */
export interface OidcProviderRecordsTable {
  model: string
  id: string
  /** oidc-provider's payload, JSON. */
  payload: string
  grantId: string | null
  uid: string | null
  userCode: string | null
  accountId: string | null
  clientId: string | null
  expiresAt: string | null
  consumedAt: string | null
  /** A provider session's: the hub session it was signed in with (migration 0052). */
  hubSessionId: string | null
}

/** Applications that sign in with the hub over OpenID Connect. */
export interface OidcClientsTable {
  id: string
  name: string
  /** SHA-256 of the secret, base64url; null for a public client. */
  secretHash: string | null
  /** JSON array of URLs. */
  redirectUris: string
  /** JSON array of URLs. */
  postLogoutRedirectUris: string
  backchannelLogoutUri: string | null
  /** 0 or 1. */
  firstParty: number
  /** JSON array of group ids (migration 0057): `[]`, everyone may use it; else members of those groups only. */
  allowedGroups: string
  createdAt: string
  /** `EdDSA`, `RS256` or `ES256`: what the client's ID tokens (and signed userinfo) are signed with. */
  idTokenAlg: string
  /** `required` or `optional` (confidential clients only). */
  pkce: string
  /** `client_secret_basic`, `client_secret_post`, or `none` (public clients). */
  authMethod: string
  logoUrl: string | null
}

/** The task manager's browser sessions (migration 0053). */
export interface TasksSessionsTable {
  /** SHA-256 of the cookie's token, base64url. */
  tokenHash: string
  userId: string
  /** The hub's OpenID Connect session id (`sid`), which back-channel logouts name. */
  hubSid: string | null
  createdAt: string
  expiresAt: string
}

/** The operator's plans (`npm run hub -- plans:add`); `free` always exists. */
export interface BillingPlansTable {
  id: string
  name: string
  /** In the currency's smallest unit; null (with currency and interval) for a plan only set by hand. */
  price: number | null
  /** ISO 4217, upper case. */
  currency: string | null
  interval: 'month' | 'year' | null
  stripePriceId: string | null
  /** JSON array of entitlement names. */
  entitlements: string
  createdAt: string
}

/** One per account that ever had a plan other than free. */
export interface BillingSubscriptionsTable {
  userId: string
  planId: string
  status: 'active' | 'trialing' | 'past_due' | 'canceled'
  currentPeriodEnd: string | null
  /** 0 or 1. */
  cancelAtPeriodEnd: number
  pastDueSince: string | null
  /** Null for a subscription set by hand. */
  stripeSubscriptionId: string | null
  /** When Stripe made the state last applied (its event's `created`). */
  stripeStateAt: string | null
  updatedAt: string
}

export interface BillingCustomersTable {
  userId: string
  stripeCustomerId: string
  createdAt: string
}

export interface BillingInvoicesTable {
  /** Stripe's invoice id. */
  id: string
  userId: string
  /** In the currency's smallest unit. */
  amount: number
  currency: string
  status: 'paid' | 'failed'
  paidAt: string | null
  url: string | null
  createdAt: string
}

/** Stripe events already applied: a retry or a replay changes nothing. */
export interface BillingWebhookEventsTable {
  id: string
  type: string
  receivedAt: string
}

/** A group's plan (the household plan): every member has its entitlements; one per group. */
export interface BillingGroupPlansTable {
  groupId: string
  planId: string
  source: 'by-hand' | 'subscription'
  /** The administrator whose Stripe subscription pays for it; null for a plan set by hand. */
  userId: string | null
  stripeSubscriptionId: string | null
  /** When a plan set by hand ends; null for good. */
  until: string | null
  createdAt: string
  updatedAt: string
}

/** The groups an administrator makes; applications read their names (issue 30). */
export interface GroupsTable {
  id: string
  name: string
  /** `name` in lower case: unique, so names are unique whatever their case. */
  nameKey: string
  description: string
  createdAt: string
  updatedAt: string
}

export interface GroupMembersTable {
  groupId: string
  userId: string
  addedAt: string
}

/** Invitations to make an account (`HUB_SIGNUP=invite`): single use, 7 days, the token kept only as its SHA-256. */
export interface InvitationsTable {
  id: string
  email: string
  tokenHash: string
  /** JSON array of the group ids the invited person joins. */
  groupIds: string
  /** The administrator's user id; null when sent from the terminal. */
  invitedBy: string | null
  createdAt: string
  expiresAt: string
  usedAt: string | null
  withdrawnAt: string | null
}

/** The one-time set-up link a hub without an administrator prints at start (its SHA-256). */
export interface SetupTokensTable {
  tokenHash: string
  createdAt: string
}

/** Every table that names a user in a `userId` column: the lists that must decide for each of them type-check against it. */
export type UserKeyedTable = { [T in keyof Database]: 'userId' extends keyof Database[T] ? T : never }[keyof Database]
