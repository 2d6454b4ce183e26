import { describe, expect, it } from 'vitest'
import { hmac } from '../../../../src/hub/kernel/security/hmac.js'
import { signSessionCookie, verifySessionCookie } from '../../../../src/hub/kernel/security/session-cookie-value.js'

const KEY = 'current-key-current-key-current-key'
const OLD_KEY = 'previous-key-previous-key-previous-key'
const NOW = new Date('2030-01-01T00:00:00Z')
const claims = { userId: 'user.with.dots@idp', sessionId: 'S'.repeat(32), expiresAt: new Date('2030-01-01T01:00:00Z') }
const valid = signSessionCookie(claims, [KEY])
const [version, userPart, sessionPart, expiresPart, macPart] = valid.split('.') as [string, string, string, string, string]

/** Re-signs a payload we altered, as someone holding a different key would. */
const signedWith = (key: string, payload: string) => `${payload}.${hmac(key, payload)}`

describe('auth cookie value', () => {
  it('round-trips the user id, session id and expiry', () => {
    expect(valid).toMatch(/^v1\.[\w-]+\.[\w-]+\.\d+\.[\w-]+$/)
    expect(verifySessionCookie(valid, [KEY], NOW)).toEqual(claims)
  })

  it('verifies with any listed key, so the signing key can rotate', () => {
    const old = signSessionCookie(claims, [OLD_KEY])
    expect(verifySessionCookie(old, [KEY, OLD_KEY], NOW)).toEqual(claims)
  })

  it.each([
    ['a raw user id', 'user-123'],
    ['an empty value', ''],
    ['an unsigned value', [version, userPart, sessionPart, expiresPart].join('.')],
    ['an empty MAC', [version, userPart, sessionPart, expiresPart, ''].join('.')],
    ['a tampered user id', [version, Buffer.from('admin').toString('base64url'), sessionPart, expiresPart, macPart].join('.')],
    ['a tampered session id', [version, userPart, 'T'.repeat(32), expiresPart, macPart].join('.')],
    ['a pushed-back expiry', [version, userPart, sessionPart, String(Number(expiresPart) + 3600), macPart].join('.')],
    ['a tampered MAC', [version, userPart, sessionPart, expiresPart, `${macPart.startsWith('A') ? 'B' : 'A'}${macPart.slice(1)}`].join('.')],
    ['another version', ['v2', userPart, sessionPart, expiresPart, macPart].join('.')],
    ['a value signed with an unknown key', signedWith('attacker-key-attacker-key-attacker', [version, userPart, sessionPart, expiresPart].join('.'))],
    ['extra parts', `${valid}.extra`],
    ['a short session id', signedWith(KEY, [version, userPart, 'abc', expiresPart].join('.'))],
    ['a non-numeric expiry', signedWith(KEY, [version, userPart, sessionPart, 'soon'].join('.'))],
    ['an oversized value', `${valid}${'A'.repeat(4096)}`]
  ])('refuses %s', (_case, value) => {
    expect(verifySessionCookie(value, [KEY], NOW)).toBeNull()
  })

  it('refuses an expired value, and one whose key was dropped', () => {
    expect(verifySessionCookie(valid, [KEY], claims.expiresAt)).toBeNull()
    expect(verifySessionCookie(valid, [OLD_KEY], NOW)).toBeNull()
  })
})
