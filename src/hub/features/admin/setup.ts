import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { HttpError, forbidden } from '../../../shared/errors.js'
import type { Logger } from '../../../shared/logging.js'
import type { Accounts } from '../../kernel/accounts/accounts.js'
import { countEnabledAdmins } from '../../kernel/accounts/roles.js'
import type { Language } from '../../kernel/language/language.js'
import { hashMailToken, newMailToken } from '../../kernel/mail/mail-tokens.js'

/** The page the set-up link opens; the token travels in its fragment, which no server sees. */
export const SETUP_PATH = '/setup'

/** The one refusal of a set-up token, whichever the reason: unknown, used, replaced, or an administrator exists. */
export const SETUP_LINK_REFUSED = 'This set-up link is not valid: it was used, replaced when the hub started again, or the hub has an administrator already'

/** Who the set-up link makes the first administrator: the signed-in account, or a new one. */
export type SetupTarget = { userId: string } | { email: string; password: string; locale: Language | null }

export interface SetupDependencies {
  db: Kysely<Database>
  accounts: Pick<Accounts, 'create'>
  now: () => Date
}

/**
 * The first administrator (docs/administration.md, "The first administrator"), as Jenkins and
 * Portainer do it: while the hub has no administrator, each start issues one set-up token (256
 * random bits, only its hash stored; it replaces the previous start's), printed to whoever
 * started the hub. Using it makes one account the administrator, once.
 */
export function createSetup({ db, accounts, now }: SetupDependencies) {
  const hasAdministrator = () => hasEnabledAdministrator(db)
  return {
    /** Whether the hub has an enabled administrator: then the set-up link is spent, whatever its token. */
    hasAdministrator,


    /**
     * Spends the token on `target`: a new account (the sign-up's rules; its address counts as
     * verified) or the signed-in one, made administrator. 403 `SETUP_LINK_REFUSED` for a token that
     * is not the current one, or once an administrator exists; the sign-up's 400 and 409 leave the
     * token unspent, so the person can correct the form.
     */
    async use(token: string, target: SetupTarget): Promise<{ userId: string; created: boolean }> {
      // One statement takes it: of two people using it at once, one gets the row.
      const claimed = await db.deleteFrom('setupTokens').where('tokenHash', '=', hashMailToken(token)).returning(['tokenHash', 'createdAt']).executeTakeFirst()
      if (!claimed) throw forbidden(SETUP_LINK_REFUSED)
      if (await hasAdministrator()) {
        await db.deleteFrom('setupTokens').execute()
        throw forbidden(SETUP_LINK_REFUSED)
      }
      let userId: string
      let created = false
      if ('userId' in target) {
        userId = target.userId
      } else {
        try {
          userId = (await accounts.create({ email: target.email, password: target.password }, now(), target.locale)).userId
          created = true
        } catch (error) {
          // A refused address or password: the token was not spent on anything.
          if (error instanceof HttpError && error.statusCode < 500) await db.insertInto('setupTokens').values(claimed).execute()
          throw error
        }
      }
      const promoted = await db
        .updateTable('users')
        .set({ role: 'admin', updatedAt: now().toISOString(), ...(created ? { emailVerified: 1 } : {}) })
        .where('id', '=', userId)
        .executeTakeFirst()
      if (Number(promoted.numUpdatedRows) !== 1) throw forbidden(SETUP_LINK_REFUSED)
      return { userId, created }
    }
  }
}

export type Setup = ReturnType<typeof createSetup>

/** Whether the hub has an enabled administrator: then no token is issued, and none is honoured. */
async function hasEnabledAdministrator(db: Kysely<Database>): Promise<boolean> {
  return (await countEnabledAdmins(db)) > 0
}

/** A fresh token, the previous start's voided; null (and every token voided) when an administrator exists. */
export async function issueSetupToken(db: Kysely<Database>, now: Date): Promise<string | null> {
  await db.deleteFrom('setupTokens').execute()
  if (await hasEnabledAdministrator(db)) return null
  const token = newMailToken()
  await db.insertInto('setupTokens').values({ tokenHash: hashMailToken(token), createdAt: now.toISOString() }).execute()
  return token
}

/**
 * At start: while no administrator exists, prints the set-up link once, at info (to whoever reads
 * the hub's output, never anywhere else); a hub with an administrator prints nothing.
 */
export async function printSetupLink(deps: { db: Kysely<Database>; now: Date; publicUrl: string; logger: Pick<Logger, 'info'> }): Promise<void> {
  const token = await issueSetupToken(deps.db, deps.now)
  if (token === null) return
  const link = `${deps.publicUrl.replace(/\/+$/, '')}${SETUP_PATH}#token=${token}`
  deps.logger.info(`This hub has no administrator yet. Open this one-time set-up link to create the first one (it is void once used, or when the hub starts again): ${link}`)
}
