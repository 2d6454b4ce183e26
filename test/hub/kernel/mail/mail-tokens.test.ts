import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MAIL_TOKEN_LIFETIMES_MS, createMailTokens, hashMailToken, newMailToken } from '../../../../src/hub/kernel/mail/mail-tokens.js'
import { databasesUnderTest, useDatabase } from '../../../helpers/databases.js'

const T0 = new Date('2030-01-01T00:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)

describe('mail tokens, the pure part', () => {
  it('are 32 random bytes in base64url, different each time', () => {
    const tokens = Array.from({ length: 50 }, newMailToken)
    for (const token of tokens) expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(tokens.every((token) => /^[A-Za-z0-9_-]{43}$/.test(token))).toBe(true)
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  it('are stored as their SHA-256, hex', () => {
    expect(hashMailToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})

describe.each(databasesUnderTest())('mail tokens on $name', (database) => {
  const handle = useDatabase(database)
  const tokens = () => createMailTokens(handle.current.db)
  const rowsOf = (userId: string) => handle.current.db.selectFrom('mailTokens').selectAll().where('userId', '=', userId).execute()

  it('stores the hash, the purpose, the account and the expiry, never the token', async () => {
    const token = await tokens().issue('user-stored', 'password-reset', T0)
    const rows = await rowsOf('user-stored')
    expect(rows).toEqual([
      {
        userId: 'user-stored',
        purpose: 'password-reset',
        tokenHash: createHash('sha256').update(token).digest('hex'),
        createdAt: T0.toISOString(),
        expiresAt: later(30 * 60_000).toISOString(),
        usedAt: null,
        newEmail: null
      }
    ])
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it('answers the account once: a used token is refused', async () => {
    const token = await tokens().issue('user-once', 'password-reset', T0)
    expect(await tokens().consume(token, 'password-reset', later(1_000))).toBe('user-once')
    expect(await tokens().consume(token, 'password-reset', later(2_000))).toBeNull()
    expect((await rowsOf('user-once'))[0]?.usedAt).toBe(later(1_000).toISOString())
  })

  it('gives one of two requests racing with the same token the account', async () => {
    const token = await tokens().issue('user-race', 'password-reset', T0)
    const answers = await Promise.all(Array.from({ length: 5 }, () => tokens().consume(token, 'password-reset', later(1_000))))
    expect(answers.filter((answer) => answer === 'user-race')).toHaveLength(1)
  })

  it('accepts only the newest token of an account and purpose', async () => {
    const older = await tokens().issue('user-newest', 'password-reset', T0)
    const newer = await tokens().issue('user-newest', 'password-reset', later(1_000))
    const otherPurpose = await tokens().issue('user-newest', 'email-verification', later(2_000))
    expect(await tokens().consume(older, 'password-reset', later(3_000))).toBeNull()
    expect(await tokens().consume(newer, 'password-reset', later(3_000))).toBe('user-newest')
    expect(await tokens().consume(otherPurpose, 'email-verification', later(3_000))).toBe('user-newest')
  })

  it('refuses a token at its expiry, not before', async () => {
    for (const purpose of ['password-reset', 'email-verification', 'email-change'] as const) {
      const lifetime = MAIL_TOKEN_LIFETIMES_MS[purpose]
      const expired = await tokens().issue(`user-expiry-${purpose}`, purpose, T0)
      expect(await tokens().consume(expired, purpose, later(lifetime))).toBeNull()
      const fresh = await tokens().issue(`user-expiry-${purpose}`, purpose, T0)
      expect(await tokens().consume(fresh, purpose, later(lifetime - 1))).toBe(`user-expiry-${purpose}`)
    }
    expect(MAIL_TOKEN_LIFETIMES_MS).toEqual({ 'password-reset': 30 * 60_000, 'email-verification': 24 * 60 * 60_000, 'email-change': 24 * 60 * 60_000 })
  })

  it('keeps the new address with an email-change token and answers it once, with the account', async () => {
    const token = await tokens().issue('user-moving', 'email-change', T0, undefined, 'new@example.com')
    expect(await tokens().consume(token, 'password-reset', later(1_000))).toBeNull()
    expect(await tokens().consumeEmailChange(token, later(1_000))).toEqual({ userId: 'user-moving', newEmail: 'new@example.com' })
    expect(await tokens().consumeEmailChange(token, later(2_000))).toBeNull()
    // Asking again replaces the address with the token.
    await tokens().issue('user-moving', 'email-change', T0, undefined, 'first@example.com')
    const second = await tokens().issue('user-moving', 'email-change', later(1_000), undefined, 'second@example.com')
    expect(await tokens().consumeEmailChange(second, later(2_000))).toEqual({ userId: 'user-moving', newEmail: 'second@example.com' })
  })

  it('refuses a token for another purpose, an unknown one and a malformed one', async () => {
    const token = await tokens().issue('user-other', 'email-verification', T0)
    expect(await tokens().consume(token, 'password-reset', later(1_000))).toBeNull()
    expect(await tokens().consume(newMailToken(), 'email-verification', later(1_000))).toBeNull()
    expect(await tokens().consume('', 'email-verification', later(1_000))).toBeNull()
    expect(await tokens().consume(`${token}x`, 'email-verification', later(1_000))).toBeNull()
    expect(await tokens().consume(hashMailToken(token), 'email-verification', later(1_000))).toBeNull()
    expect(await tokens().consume(token, 'email-verification', later(1_000))).toBe('user-other')
  })

  it('issues a token inside the caller\'s transaction, gone if it rolls back', async () => {
    await expect(
      handle.current.db.transaction().execute(async (trx) => {
        await tokens().issue('user-rollback', 'password-reset', T0, trx)
        throw new Error('the rest of the work failed')
      })
    ).rejects.toThrow('the rest of the work failed')
    expect(await rowsOf('user-rollback')).toEqual([])
  })
})
