import { describe, expect, it } from 'vitest'
import { deviceName, deviceOf } from '../../../../src/hub/kernel/http/device.js'

describe('device names from user agents', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox on Windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Safari on iOS'
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
      'Microsoft Edge on macOS'
    ],
    // The parser's generic rule: the product named first.
    ['HearthSync/2.0 (Windows NT 10.0; Win64; x64)', 'HearthSync on Windows'],
    ['lightMyRequest', null],
    ['curl/8.5.0', null],
    ['', null]
  ])('%j is %j', (userAgent, name) => {
    expect(deviceName(deviceOf(userAgent))).toBe(name)
  })

  it.each([
    [{ browser: 'Chrome', os: null }, 'Chrome'],
    [{ browser: null, os: 'Linux' }, 'Linux'],
    [{ browser: null, os: null }, null]
  ])('names half a device by the half it knows: %j is %j', (device, name) => {
    expect(deviceName(device)).toBe(name)
  })

  it('keeps the halves apart for pages that word them in their own language', () => {
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0')).toEqual({ browser: 'Firefox', os: 'Windows' })
  })
})
