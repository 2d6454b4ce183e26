import type { ClaimsSource } from '../../kernel/tokens/claims.js'
import type { Subscriptions } from './subscriptions.js'

/**
 * What applications read of an account's billing (docs/billing.md): `plan` and `entitlements`, in
 * every SSO token and under the OpenID Connect scope `billing`. One read, the subscription joined
 * to its plan, as each token or userinfo answer is made.
 */
export function billingClaims(subscriptions: Pick<Subscriptions, 'entitlementsOf'>): ClaimsSource {
  return {
    scope: 'billing',
    claims: ['plan', 'entitlements'],
    consent: {
      en: 'Your plan and what it entitles you to (never your payment details)',
      es: 'Tu plan y lo que incluye (nunca tus datos de pago)'
    },
    async claimsOf(userId, now) {
      const { plan, entitlements } = await subscriptions.entitlementsOf(userId, now)
      return { plan, entitlements }
    }
  }
}
