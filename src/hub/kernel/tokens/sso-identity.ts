import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { type Param, prepareQuery } from '../../../shared/database/prepared-query.js'

/** What an SSO token says of its bearer beside the account id. */
export interface SsoIdentity {
  email: string
  emailVerified: boolean
  /** The display name; absent unless the person lets others see their profile. */
  name?: string
}

/** What a signed-in session knows of its person (an `ActiveSession` is one): tokens sit below sessions. */
export interface SessionPerson {
  userId: string
  email: string
  emailVerified: boolean
}

export type SsoIdentityOf = (session: SessionPerson) => Promise<SsoIdentity>

/** Under an external provider the hub keeps no account: what the provider's ID token said at sign-in. */
export const identityOfSession: SsoIdentityOf = async ({ email, emailVerified }) => ({ email, emailVerified })

/** The profile visibilities under which applications may show the person's name to others. */
const NAME_SHOWN_WHEN: ReadonlySet<string> = new Set(['family', 'public'])

/**
 * The one part of a stored privacy document (the privacy feature's settings, docs/privacy.md) an
 * identity is read with: the profile's visibility, `private`, `family` or `public`.
 */
interface ProfileVisibilityOfDocument {
  visibility?: { profile?: string }
}

/**
 * The built-in provider's accounts, read as the token is issued rather than from the session: a
 * session cached just before a verification or an address change would otherwise sign the old
 * value.
 */
export function accountSsoIdentities(db: Kysely<Database>): SsoIdentityOf {
  const identityOf = accountIdentities(db)
  return async (session) => {
    const account = await identityOf(session.userId)
    // Gone since the session was read: its sessions are ending with it, and it has no name to give.
    if (!account) return identityOfSession(session)
    const { disabled: _disabled, ...identity } = account
    return identity
  }
}

/**
 * A built-in account's identity as applications may see it, and whether it is disabled; undefined
 * when there is no such account. One read by primary key, the privacy document joined on its
 * primary key.
 */
export function accountIdentities(db: Kysely<Database>): (userId: string) => Promise<(SsoIdentity & { disabled: boolean }) | undefined> {
  const accountById = prepareQuery(db, (param: Param<{ userId: string }>) =>
    db
      .selectFrom('users')
      .leftJoin('privacySettings', 'privacySettings.userId', 'users.id')
      .select(['users.email', 'users.emailVerified', 'users.displayName', 'users.disabled', 'privacySettings.document'])
      .where('users.id', '=', param('userId'))
  )
  return async (userId) => {
    const account = await accountById.first({ userId })
    if (!account) return undefined
    const identity = { email: account.email, emailVerified: account.emailVerified === 1, disabled: account.disabled === 1 }
    const { displayName, document } = account
    // No document yet is the default, a private profile.
    if (displayName === null || document === null || !NAME_SHOWN_WHEN.has(profileVisibilityIn(document) ?? 'private')) return identity
    return { ...identity, name: displayName }
  }
}

function profileVisibilityIn(document: string): string | undefined {
  return (JSON.parse(document) as ProfileVisibilityOfDocument).visibility?.profile
}
