import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, logIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'

/** Where the reverse proxy connects from in these tests. */
const PROXY = '10.70.0.1'
const ONE_HOUR = 60 * 60 * 1000

/** A sign-up as the hub receives it through the proxy, which appends the browser's address. */
async function signUpThroughProxy(app: App, forwardedFor: string, remoteAddress = PROXY) {
  const email = uniqueEmail('proxied')
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email, password: GOOD_PASSWORD },
    remoteAddress
  })
  return { email, statusCode: response.statusCode }
}

/** The address the audit trail recorded for an account's sign-up, read through the user's export. */
async function signUpAddressOf(app: App, email: string): Promise<string | null> {
  const user = await logIn(app, email)
  const exported = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
  const events = exported.json<{ datasets: { auditTrail: { type: string; ip: string | null }[] } }>().datasets.auditTrail
  return events.find((event) => event.type === 'signup')?.ip ?? null
}

const oneSignUpPerAddress = { rateLimits: { signupsPerIp: { limit: 1, windowMs: ONE_HOUR } } }

describe.each(databasesUnderTest())('HUB_TRUSTED_PROXIES on $name', (database) => {
  describe('unset (the default)', () => {
    const hub = useHubApp(database, oneSignUpPerAddress)

    it('takes the connection peer as the client and ignores X-Forwarded-For', async () => {
      const first = await signUpThroughProxy(hub.app, '198.51.100.1')
      expect(first.statusCode).toBe(200)
      expect(await signUpAddressOf(hub.app, first.email)).toBe(PROXY)
      // A forged header gives no fresh allowance.
      expect((await signUpThroughProxy(hub.app, '198.51.100.2')).statusCode).toBe(429)
    })
  })

  describe('listing the proxy', () => {
    const hub = useHubApp(database, { ...oneSignUpPerAddress, config: { trustedProxies: ['10.70.0.0/16'] } })

    it('takes the address the proxy forwards as the client, for the audit trail and the per-IP limits', async () => {
      const first = await signUpThroughProxy(hub.app, '198.51.100.11')
      expect(first.statusCode).toBe(200)
      expect(await signUpAddressOf(hub.app, first.email)).toBe('198.51.100.11')
      expect((await signUpThroughProxy(hub.app, '198.51.100.11')).statusCode).toBe(429)
      // Another browser behind the same proxy keeps its own allowance.
      expect((await signUpThroughProxy(hub.app, '198.51.100.12')).statusCode).toBe(200)
    })

    it('believes only the proxy: an address the browser put in the header itself is not its address', async () => {
      // The browser sent "X-Forwarded-For: 203.0.113.50"; the proxy appended where it really came from.
      const spoofed = await signUpThroughProxy(hub.app, '203.0.113.50, 198.51.100.21')
      expect(spoofed.statusCode).toBe(200)
      expect(await signUpAddressOf(hub.app, spoofed.email)).toBe('198.51.100.21')
      expect((await signUpThroughProxy(hub.app, '203.0.113.51, 198.51.100.21')).statusCode).toBe(429)
    })

    it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
      const direct = '192.0.2.31'
      expect((await signUpThroughProxy(hub.app, '198.51.100.31', direct)).statusCode).toBe(200)
      expect((await signUpThroughProxy(hub.app, '198.51.100.32', direct)).statusCode).toBe(429)
    })
  })
})
