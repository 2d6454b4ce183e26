import { describe, expect, it } from 'vitest'
import { type ClaimsSource, composeClaimsSources } from '../../../../src/hub/kernel/tokens/claims.js'

const source = (scope: string, claims: string[], values: Record<string, unknown> = {}): ClaimsSource => ({
  scope,
  claims,
  consent: { en: scope, es: scope },
  claimsOf: async () => values
})

describe('composing the claims features add', () => {
  it.each([
    ['a scope of the provider', [source('email', ['plan'])], 'scope taken: email'],
    ['offline_access', [source('offline_access', ['plan'])], 'scope taken: offline_access'],
    ['a registered claim', [source('billing', ['sub'])], 'claim taken: sub'],
    ['a claim of the SSO token', [source('billing', ['email_verified'])], 'claim taken: email_verified'],
    ['the one-off id', [source('billing', ['jti'])], 'claim taken: jti'],
    ['a scope twice', [source('billing', ['plan']), source('billing', ['seats'])], 'scope taken: billing'],
    ['a claim twice', [source('billing', ['plan']), source('teams', ['plan'])], 'claim taken: plan']
  ])('refuses %s at start', (_name, sources, message) => {
    expect(() => composeClaimsSources(sources)).toThrow(message)
  })

  it('reads every source and keeps only the claims each declared', async () => {
    const read: string[] = []
    const billing: ClaimsSource = {
      ...source('billing', ['plan', 'entitlements']),
      claimsOf: async (userId, now) => {
        read.push(`${userId} ${now.toISOString()}`)
        return { plan: 'family', entitlements: ['exports'], sub: 'someone-else', card: '4242' }
      }
    }
    const added = composeClaimsSources([billing, source('teams', ['team', 'role'], { team: 't1' })])
    const now = new Date('2030-01-01T00:00:00Z')
    expect(await added.of('u1', now)).toEqual({ plan: 'family', entitlements: ['exports'], team: 't1' })
    expect(read).toEqual(['u1 2030-01-01T00:00:00.000Z'])
  })

  it('adds nothing with no source', async () => {
    expect(await composeClaimsSources([]).of('u1', new Date())).toEqual({})
  })
})
