import { describe, expect, it } from 'vitest'
import { csrfHeaderMatches, isCsrfTokenBound, issueCsrfToken } from '../../../../src/hub/kernel/security/csrf-token.js'
import { hmac } from '../../../../src/hub/kernel/security/hmac.js'

const KEY = 'current-key-current-key-current-key'
const OLD_KEY = 'previous-key-previous-key-previous-key'
const SESSION = 'session-aaaaaaaaaaaaaaaaaaaa'
const OTHER_SESSION = 'session-bbbbbbbbbbbbbbbbbbbb'

describe('CSRF token binding', () => {
  const bound = issueCsrfToken([KEY], SESSION)
  const anonymous = issueCsrfToken([KEY], null)
  const nonce = bound.split('.')[0] ?? ''

  it.each([
    ['a token issued for this session', bound, SESSION, true],
    ['a token issued before sign-in, once signed in', anonymous, SESSION, false],
    ["another session's token", issueCsrfToken([KEY], OTHER_SESSION), SESSION, false],
    ['a token issued before sign-in, with no session', anonymous, null, true],
    ["a session's token, with no session", bound, null, false],
    ['a token signed with an older listed key', issueCsrfToken([OLD_KEY], SESSION), SESSION, true],
    ['a token planted by a site without the key', `${nonce}.${hmac('sibling-site-key', `csrf:${SESSION}:${nonce}`)}`, SESSION, false],
    ['a bare random value', 'abcdefghijklmnopqrstuvwxyz', SESSION, false],
    ['a token with its MAC cut off', `${nonce}.`, SESSION, false],
    ['a token with an extra part', `${bound}.x`, SESSION, false],
    ['the empty string', '', SESSION, false]
  ])('%s: bound = %s', (_case, token, sessionId, expected) => {
    expect(isCsrfTokenBound(token, [KEY, OLD_KEY], sessionId)).toBe(expected)
  })

  it('issues a different token each time', () => {
    expect(issueCsrfToken([KEY], SESSION)).not.toBe(bound)
  })
})

describe('double-submit comparison', () => {
  it.each([
    ['equal', 'token-value', 'token-value', true],
    ['different', 'token-value', 'token-valuX', false],
    ['different lengths', 'token-value', 'token-value-longer', false],
    ['no header', 'token-value', undefined, false],
    ['no cookie', undefined, 'token-value', false],
    ['both empty', '', '', false]
  ])('%s → %s', (_case, cookie, header, expected) => {
    expect(csrfHeaderMatches(cookie, header)).toBe(expected)
  })
})
