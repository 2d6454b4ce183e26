import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { groupsOf } from '../../kernel/accounts/groups.js'
import type { ClaimsSource } from '../../kernel/tokens/claims.js'

/**
 * What applications read of a person's groups (docs/oidc.md, "Groups"): `groups`, the names of the
 * groups they are in, in every SSO token and under the OpenID Connect scope `groups`. Always an
 * array, empty when the person is in none, so an application mapping roles from it reads "no
 * group" rather than "no claim". Read as each token or userinfo answer is made: a renamed group or
 * a changed membership shows at the next one.
 */
export function groupsClaims(db: Kysely<Database>): ClaimsSource {
  return {
    scope: 'groups',
    claims: ['groups'],
    consent: {
      en: 'The names of the groups you are in',
      es: 'Los nombres de los grupos a los que perteneces'
    },
    async claimsOf(userId) {
      return { groups: (await groupsOf(db, userId)).map((group) => group.name) }
    }
  }
}
