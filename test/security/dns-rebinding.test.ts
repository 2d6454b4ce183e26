import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../../src/shared/config.js'
import type { App } from '../../src/shared/http/server.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, uniqueEmail, useHubApp } from '../helpers/hub-app.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

/**
 * DNS rebinding: a page at rebind.attacker.example has its name re-pointed at 127.0.0.1, and the
 * victim's browser, taking it for the same origin, sends it requests with the attacker's name as
 * Host. Each service answers only its own names, so such a page reads and writes nothing.
 */
const ATTACKER_HOSTS = [
  'rebind.attacker.example',
  'rebind.attacker.example:3000',
  'localhost.attacker.example:3000',
  '127.0.0.1.nip.io:3000'
]

function expectMisdirected(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(421)
  expect(response.json()).toEqual({ error: 'This server does not answer for that Host' })
}

describe.each(databasesUnderTest())('DNS rebinding against the task manager on $name', (database) => {
  const handle = useDatabase(database)
  const ALICE = { 'x-user-id': 'alice' }
  let app: App
  beforeAll(async () => {
    // The defaults of PORT=3000: localhost, 127.0.0.1 and [::1] on that port, and HOST (127.0.0.1).
    app = await buildTestTasksApp(handle.current.db, { config: { allowedHosts: readConfig({ PORT: '3000' }).tasks.allowedHosts } })
  })
  afterAll(async () => {
    await app.close()
  })

  it.each([...ATTACKER_HOSTS, 'localhost', 'localhost:3001', '0.0.0.0:3000'])('refuses Host %s: no task is created or listed', async (host) => {
    const created = await app.inject({ method: 'POST', url: '/tasks', headers: { ...ALICE, host }, payload: { title: 'planted' } })
    expectMisdirected(created)
    expectMisdirected(await app.inject({ method: 'GET', url: '/tasks', headers: { ...ALICE, host } }))
    const listed = await app.inject({ method: 'GET', url: '/tasks', headers: { ...ALICE, host: 'localhost:3000' } })
    expect(listed.json<{ tasks: { title: string }[] }>().tasks.map((task) => task.title)).not.toContain('planted')
  })

  it.each(['localhost:3000', 'LOCALHOST:3000', '127.0.0.1:3000', '[::1]:3000', '[0:0:0:0:0:0:0:1]:3000'])('serves Host %s', async (host) => {
    const response = await app.inject({ method: 'GET', url: '/tasks', headers: { ...ALICE, host } })
    expect(response.statusCode).toBe(200)
  })

  it('believes the connection, not an X-Forwarded-Host the page wrote itself', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/tasks',
      headers: { ...ALICE, host: 'rebind.attacker.example:3000', 'x-forwarded-host': 'localhost:3000' }
    })
    expectMisdirected(response)
  })

  it('refuses unknown routes and the docs the same way, with the baseline headers', async () => {
    for (const url of ['/nothing-here', '/openapi.json']) {
      const response = await app.inject({ url, headers: { host: 'rebind.attacker.example' } })
      expectMisdirected(response)
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    }
  })

  it('answers liveness and readiness whatever the Host: orchestrators probe by address', async () => {
    for (const url of ['/health', '/ready']) {
      expect((await app.inject({ url, headers: { host: '10.1.2.3:3000' } })).statusCode).toBe(200)
    }
  })
})

describe.each(databasesUnderTest())('DNS rebinding against the hub on $name', (database) => {
  // HUB_PUBLIC_URL is http://localhost:3001; HUB_ALLOWED_HOSTS adds the name a proxy uses; listening on
  // 127.0.0.1 (the default HOST) it also answers the loopback addresses with its port, as `npm start` prints them.
  const loopbackHosts = readConfig({}).hub.loopbackHosts
  const hub = useHubApp(database, { config: { allowedHosts: ['hub.internal:8080'], loopbackHosts } })
  const signUp = (host: string, email = uniqueEmail()) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { host }, payload: { email, password: GOOD_PASSWORD } })

  it.each([...ATTACKER_HOSTS, 'localhost', 'localhost:3000', 'hub.internal', '127.0.0.1', '127.0.0.1:3000', '[::1]:8080', '0.0.0.0:3001'])('refuses Host %s, with the security headers, signing no one up', async (host) => {
    const email = uniqueEmail()
    const refused = await signUp(host, email)
    expectMisdirected(refused)
    expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(refused.headers['strict-transport-security']).toBeDefined()
    // The address was not taken: the same sign-up at the hub's own name succeeds.
    expect((await signUp(new URL(HUB_ORIGIN).host, email)).statusCode).toBe(200)
  })

  it('refuses to sign in or read the key set under a foreign Host', async () => {
    const email = uniqueEmail()
    expect((await signUp('localhost:3001', email)).statusCode).toBe(200)
    const login = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: 'rebind.attacker.example:3001' },
      payload: { email, password: GOOD_PASSWORD }
    })
    expectMisdirected(login)
    expect(login.cookies.map((cookie) => cookie.name)).not.toContain('service-auth-token')
    expectMisdirected(await hub.app.inject({ url: '/.well-known/jwks.json', headers: { host: 'rebind.attacker.example:3001' } }))
  })

  it.each(['localhost:3001', 'LocalHost:3001', 'hub.internal:8080', 'HUB.INTERNAL:8080'])('serves Host %s (its public URL and HUB_ALLOWED_HOSTS)', async (host) => {
    expect((await signUp(host)).statusCode).toBe(200)
  })

  it('answers liveness and readiness whatever the Host', async () => {
    for (const url of ['/api/health', '/api/ready']) {
      expect((await hub.app.inject({ url, headers: { host: '10.1.2.3:3001' } })).statusCode).toBe(200)
    }
  })

  it.each(['127.0.0.1:3001', '[::1]:3001', '[0:0:0:0:0:0:0:1]:3001'])('answers the API at the loopback address %s', async (host) => {
    expect(loopbackHosts).toEqual(['127.0.0.1:3001', '[::1]:3001'])
    expect((await signUp(host)).statusCode).toBe(200)
  })

  it.each(['127.0.0.1:3001', '[::1]:3001'])('sends a browser that opened a page at %s to the same page at HUB_PUBLIC_URL', async (host) => {
    for (const [url, location] of [
      ['/', `${HUB_ORIGIN}/`],
      ['/signup?next=%2Fdashboard', `${HUB_ORIGIN}/signup?next=%2Fdashboard`],
      ['//rebind.attacker.example/x', `${HUB_ORIGIN}//rebind.attacker.example/x`]
    ]) {
      const response = await hub.app.inject({ url, headers: { host } })
      expect(response.statusCode, url).toBe(307)
      expect(response.headers.location, url).toBe(location)
      expect(new URL(String(response.headers.location)).origin).toBe(HUB_ORIGIN)
    }
    // At its public URL the page is served.
    expect((await hub.app.inject({ url: '/signup', headers: { host: 'localhost:3001' } })).statusCode).toBe(200)
  })
})
