import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import type { ConsentLog, WithdrawConsents } from '../../kernel/records/consents.js'

export interface ConnectedApplication {
  clientId: string
  name: string
  logoUrl: string | null
  /** The scopes granted, as the consent page listed them. */
  scopes: string[]
  grantedAt: string
}

/** The consent purpose under which a decision about a client is recorded (docs/oidc.md). */
export function consentPurposeOf(clientId: string): string {
  return `oidc:${clientId}`
}

/**
 * The provider records each consent decision in the hub's consent log (the kernel's `ConsentLog`,
 * which the privacy feature keeps) under `consentPurposeOf(clientId)`, its `version` the scopes allowed.
 */
export type { ConsentLog, WithdrawConsents }

/**
 * The applications a person let sign them in: the provider's live grants, one entry per client
 * (a person signed in from two browsers holds two grants for it).
 */
export function createConnectedApplications(db: Kysely<Database>, now: () => Date) {
  const liveGrants = (accountId: string) =>
    db
      .selectFrom('oidcProviderRecords')
      .where('model', '=', 'Grant')
      .where('accountId', '=', accountId)
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now().toISOString())]))
  return {
    async list(accountId: string): Promise<ConnectedApplication[]> {
      const rows = await liveGrants(accountId)
        .innerJoin('oidcClients', 'oidcClients.id', 'oidcProviderRecords.clientId')
        .select(['oidcClients.id as clientId', 'oidcClients.name', 'oidcClients.logoUrl', 'oidcProviderRecords.payload'])
        .orderBy('oidcClients.id')
        .execute()
      const byClient = new Map<string, ConnectedApplication>()
      for (const row of rows) {
        const payload = JSON.parse(row.payload) as { iat?: number; openid?: { scope?: string } }
        const scopes = (payload.openid?.scope ?? '').split(' ').filter(Boolean)
        const grantedAt = new Date((payload.iat ?? 0) * 1000).toISOString()
        const known = byClient.get(row.clientId)
        byClient.set(row.clientId, {
          clientId: row.clientId,
          name: row.name,
          logoUrl: row.logoUrl,
          scopes: [...new Set([...(known?.scopes ?? []), ...scopes])],
          grantedAt: known && known.grantedAt < grantedAt ? known.grantedAt : grantedAt
        })
      }
      return [...byClient.values()]
    },

    /** Ends every grant of the account for the client, with the codes and tokens issued under them; whether there was one. */
    async revoke(accountId: string, clientId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const grants = await trx
          .selectFrom('oidcProviderRecords')
          .select('id')
          .where('model', '=', 'Grant')
          .where('accountId', '=', accountId)
          .where('clientId', '=', clientId)
          .execute()
        if (grants.length === 0) return false
        await deleteGrants(trx, grants.map((grant) => grant.id))
        return true
      })
    }
  }
}

/** Deletes the grants with the codes and tokens issued under them. */
export async function deleteGrants(db: Kysely<Database>, grantIds: string[]): Promise<void> {
  await db
    .deleteFrom('oidcProviderRecords')
    .where((eb) => eb.or([eb('grantId', 'in', grantIds), eb.and([eb('model', '=', 'Grant'), eb('id', 'in', grantIds)])]))
    .execute()
}

export type ConnectedApplications = ReturnType<typeof createConnectedApplications>

/**
 * Every application an account's earlier holder let sign in as it, gone in the first proof's
 * transaction (docs/account.md, "Account pre-hijacking"): the provider's grants with the codes and
 * tokens issued under them, as disconnecting does, and the remembered consents withdrawn, so the
 * owner is asked again. Answers how many applications; the provider's sessions are left to end with
 * the hub sessions they were signed in with (`ended-hub-sessions.ts`).
 */
export async function removeApplicationsOfEarlierHolder(trx: Kysely<Database>, userId: string, now: Date, withdrawConsents: WithdrawConsents): Promise<number> {
  const grants = await trx.selectFrom('oidcProviderRecords').select(['id', 'clientId']).where('model', '=', 'Grant').where('accountId', '=', userId).execute()
  if (grants.length > 0) await deleteGrants(trx, grants.map((grant) => grant.id))
  const applications = new Set(grants.flatMap((grant) => (grant.clientId === null ? [] : [consentPurposeOf(grant.clientId)])))
  for (const purpose of await withdrawConsents(trx, userId, consentPurposeOf(''), now)) applications.add(purpose)
  return applications.size
}
