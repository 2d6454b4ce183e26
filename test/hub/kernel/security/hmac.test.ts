import { describe, expect, it } from 'vitest'
import { hmac, verifyHmac } from '../../../../src/hub/kernel/security/hmac.js'

const KEY = 'current-key-current-key-current-key'
const OLD_KEY = 'previous-key-previous-key-previous-key'
const MESSAGE = 'v1.dXNlcg.session-aaaaaaaaaaaaaaaa.1800000000'

// verifyHmac remembers the pairs it found valid; none of these may pass because another pair did.
describe('HMAC verification, remembered', () => {
  it('keeps refusing a changed message or MAC after the genuine pair was verified', () => {
    const keys = [KEY]
    const mac = hmac(KEY, MESSAGE)
    expect(verifyHmac(keys, MESSAGE, mac)).toBe(true)
    expect(verifyHmac(keys, MESSAGE, mac)).toBe(true)
    expect(verifyHmac(keys, `${MESSAGE}0`, mac)).toBe(false)
    expect(verifyHmac(keys, MESSAGE, `${mac.slice(0, -1)}A`)).toBe(false)
  })

  it('refuses the same characters split differently between MAC and message', () => {
    const keys = [KEY]
    const mac = hmac(KEY, MESSAGE)
    expect(verifyHmac(keys, MESSAGE, mac)).toBe(true)
    expect(verifyHmac(keys, MESSAGE.slice(1), mac + MESSAGE.slice(0, 1))).toBe(false)
    expect(verifyHmac(keys, mac.slice(-1) + MESSAGE, mac.slice(0, -1))).toBe(false)
  })

  it('answers for the key set it is given: a pair verified under other keys is checked again', () => {
    const mac = hmac(OLD_KEY, MESSAGE)
    expect(verifyHmac([KEY, OLD_KEY], MESSAGE, mac)).toBe(true)
    // The old key retired: what it signed stops verifying at once.
    expect(verifyHmac([KEY], MESSAGE, mac)).toBe(false)
    expect(verifyHmac(['a-key-of-another-instance-entirely'], MESSAGE, mac)).toBe(false)
  })

  it('does not remember a refusal: a pair refused once is refused for its own reason every time', () => {
    const keys = [KEY]
    const forged = hmac('sibling-site-key', MESSAGE)
    expect(verifyHmac(keys, MESSAGE, forged)).toBe(false)
    expect(verifyHmac(keys, MESSAGE, forged)).toBe(false)
    expect(verifyHmac(keys, MESSAGE, hmac(KEY, MESSAGE))).toBe(true)
  })
})
