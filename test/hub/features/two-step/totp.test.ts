import { describe, expect, it } from 'vitest'
import { matchingStep, otpauthUri, totpCode } from '../../../../src/hub/features/two-step/totp.js'

/** RFC 6238's SHA-1 key, the ASCII "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'

describe('TOTP (RFC 6238)', () => {
  // Appendix B's SHA-1 column; six digits are the last six of its eight (both are the value mod 10^n).
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130']
  ])('at %i s the code is the last six digits of %s', (seconds, eightDigits) => {
    expect(totpCode(RFC_SECRET, new Date(seconds * 1000))).toBe(eightDigits.slice(2))
  })

  it('accepts the code of the step before and after, and names the step it belongs to', () => {
    const now = new Date(1234567890 * 1000)
    const step = Math.floor(1234567890 / 30)
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step)
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, new Date(now.getTime() - 30_000)), now)).toBe(step - 1)
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, new Date(now.getTime() + 30_000)), now)).toBe(step + 1)
  })

  it('refuses codes two steps away and codes of another secret', () => {
    const now = new Date(1234567890 * 1000)
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, new Date(now.getTime() - 60_000)), now)).toBeNull()
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, new Date(now.getTime() + 60_000)), now)).toBeNull()
    expect(matchingStep('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', totpCode(RFC_SECRET, now), now)).toBeNull()
  })

  it('writes the otpauth URI authenticator apps scan: SHA-1, 6 digits, 30 s, issuer Hearth', () => {
    const uri = new URL(otpauthUri(RFC_SECRET, 'ada@example.org'))
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.host).toBe('totp')
    expect(decodeURIComponent(uri.pathname)).toBe('/Hearth:ada@example.org')
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: 'Hearth', secret: RFC_SECRET, algorithm: 'SHA1', digits: '6', period: '30' })
  })
})
