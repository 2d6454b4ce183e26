import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { safeNextPath } from '../../src/hub/kernel/language/next-path.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { HUB_ORIGIN, type SignedIn, cookieHeader, signUpAndLogIn, useHubApp } from '../helpers/hub-app.js'

/**
 * Attack: a link to the hub whose `next` parameter sends the visitor on to another site after the
 * language switch or the sign-in page, lending the hub's name to a phishing page.
 */

/** Pieces an attacker strings together: separators, dot segments in every spelling, hosts, controls. */
const attackPiece = fc.constantFrom(
  '/', '//', '\\', '.', '..', '%2e', '%2E', '%2e%2e', '.%2e', '%2f', '%2F', '%5c', '%09', '%00',
  '\t', '\n', '\r', '\u0000', ' ', '?', '#', '@', ':', ';', 'evil.com', 'evil.com:443',
  'https:', 'javascript:', 'a', 'dashboard', '\u3002', '\uff0f', '\u2215', 'é'
)
const attackPath = fc.array(attackPiece, { maxLength: 12 }).map((pieces) => pieces.join(''))
const candidateNext = fc.oneof(attackPath, attackPath.map((path) => `/${path}`), fc.string({ unit: 'binary' }))

/** Where a browser goes with `Location: <path>` from this page of the hub (WHATWG URL parser). */
const destinationFrom = (page: string, location: string) => new URL(location, new URL(page, HUB_ORIGIN))

describe('open redirect: safeNextPath against the WHATWG URL parser', () => {
  it('returns only paths that resolve to the hub itself, from any page', () => {
    fc.assert(
      fc.property(candidateNext, fc.constantFrom('/', '/language?lang=es', '/login', '/a/b/'), (raw, page) => {
        const next = safeNextPath(raw)
        if (next === undefined) return
        expect(next.startsWith('/')).toBe(true)
        expect(destinationFrom(page, next).origin).toBe(HUB_ORIGIN)
      }),
      { numRuns: 20_000 }
    )
  })

  it('returns a path that it would return unchanged: what it checked is what it hands out', () => {
    fc.assert(
      fc.property(candidateNext, (raw) => {
        const next = safeNextPath(raw)
        if (next !== undefined) expect(safeNextPath(next)).toBe(next)
      }),
      { numRuns: 20_000 }
    )
  })

  it.each([['/..//evil.com'], ['/%2e%2e//evil.com'], ['/.%2E//evil.com'], ['/a/../..//evil.com'], ['/./..//evil.com/dashboard']])(
    'refuses the dot segment %j that normalises to another host',
    (raw) => {
      expect(safeNextPath(raw)).toBeUndefined()
    }
  )
})

describe.each(databasesUnderTest())('open redirect over HTTP on $name', (database) => {
  const hub = useHubApp(database)
  let user: SignedIn

  beforeAll(async () => {
    user = await signUpAndLogIn(hub.app)
  })

  const locationOf = async (url: string, headers: Record<string, string> = {}) => {
    const response = await hub.app.inject({ method: 'GET', url, headers })
    expect(response.statusCode).toBe(303)
    return String(response.headers.location)
  }

  it.each([['/language?lang=es&next=/..//evil.com'], ['/language?lang=es&next=/%2e%2e//evil.com']])(
    'GET %s, signed out, goes home rather than to evil.com',
    async (url) => {
      const location = await locationOf(url)
      expect(location).toBe('/')
      expect(destinationFrom('/language', location).origin).toBe(HUB_ORIGIN)
    }
  )

  it.each([['/login?next=/%2e%2e//evil.com'], ['/login?next=/..//evil.com'], ['/signup?next=/%2e%2e//evil.com']])(
    'GET %s, signed in, lands on the dashboard rather than evil.com',
    async (url) => {
      const location = await locationOf(url, { cookie: cookieHeader({ 'service-auth-token': user.authCookie }) })
      expect(location).toBe('/dashboard')
    }
  )

  it('still follows a same-site next with a dot segment, normalised', async () => {
    expect(await locationOf('/language?lang=es&next=/a/../privacy')).toBe('/privacy')
  })
})
