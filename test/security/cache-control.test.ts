import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { GOOD_PASSWORD, signUpAndLogIn, useHubApp } from '../helpers/hub-app.js'
import { useTasksApp } from '../helpers/tasks-app.js'

/**
 * Tokens and personal data kept by a cache: a shared proxy serving one user's answer to another,
 * or the browser's cache and back button showing it on a shared computer after sign-out. Every
 * such answer, refusals included, says `Cache-Control: no-store`.
 */
function expectNoStore(response: LightMyRequestResponse, what: string): void {
  expect(response.headers['cache-control'], what).toBe('no-store')
}

describe.each(databasesUnderTest())('caching of answers with tokens or personal data, hub on $name', (database) => {
  const hub = useHubApp(database)

  it('login, set-cookie, generate-token and refresh answers are never stored, nor their refusals', async () => {
    const user = await signUpAndLogIn(hub.app)
    const login = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: GOOD_PASSWORD } })
    expect(login.statusCode).toBe(200)
    expectNoStore(login, 'login')
    const wrongPassword = await hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'not the password at all' } })
    expect(wrongPassword.statusCode).toBe(401)
    expectNoStore(wrongPassword, 'a refused login')

    const setCookie = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken: login.json<{ idToken: string }>().idToken } })
    expect(setCookie.statusCode).toBe(200)
    expectNoStore(setCookie, 'set-cookie')
    const forged = await hub.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: user.userId, idToken: 'forged' } })
    expect(forged.statusCode).toBe(401)
    expectNoStore(forged, 'a refused set-cookie')

    const token = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(token.statusCode).toBe(200)
    expectNoStore(token, 'generate-token')
    const anonymous = await hub.app.inject({ method: 'POST', url: '/api/auth/generate-token', payload: { audience: 'tasks' } })
    expect(anonymous.statusCode).toBe(403)
    expectNoStore(anonymous, 'a refused generate-token')

    const refresh = await hub.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })
    expect(refresh.statusCode).toBe(200)
    expectNoStore(refresh, 'refresh')
  })

  it('privacy settings, consent and export answers are never stored', async () => {
    const user = await signUpAndLogIn(hub.app)
    const requests = [
      ['GET', '/api/privacy/settings', undefined],
      ['PUT', '/api/privacy/settings', { cookies: { analytics: true } }],
      ['GET', '/api/privacy/consent', undefined],
      ['POST', '/api/privacy/consent', { purpose: 'terms', granted: true }],
      ['GET', '/api/export', undefined],
      ['POST', '/api/export', { format: 'json' }]
    ] as const
    for (const [method, url, payload] of requests) {
      const response = await hub.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) })
      expect(response.statusCode, `${method} ${url}`).toBe(200)
      expectNoStore(response, `${method} ${url}`)
    }
    expectNoStore(await hub.app.inject({ url: '/api/privacy/settings' }), 'a privacy refusal')
  })

  it('keeps the key set publicly cacheable, as applications fetch it', async () => {
    expect((await hub.app.inject({ url: '/.well-known/jwks.json' })).headers['cache-control']).toBe('public, max-age=300')
  })
})

describe.each(databasesUnderTest())("caching of the task manager's task answers on $name", (database) => {
  const tasks = useTasksApp(database)
  const ALICE = { 'x-user-id': 'alice' }

  it('lists, creates, reads, updates and deletes are never stored, nor their refusals', async () => {
    const created = await tasks.app.inject({ method: 'POST', url: '/tasks', headers: ALICE, payload: { title: 'Call the bank' } })
    expect(created.statusCode).toBe(201)
    expectNoStore(created, 'a create')
    const id = created.json<{ id: string }>().id
    const requests = [
      ['GET', '/tasks', ALICE, 200],
      ['GET', `/tasks/${id}`, ALICE, 200],
      ['PUT', `/tasks/${id}`, ALICE, 200],
      ['GET', `/tasks/${id}`, { 'x-user-id': 'mallory' }, 404],
      ['GET', '/tasks', {}, 401],
      ['DELETE', `/tasks/${id}`, ALICE, 204]
    ] as const
    for (const [method, url, headers, status] of requests) {
      const response = await tasks.app.inject({ method, url, headers, ...(method === 'PUT' ? { payload: { status: 'completed' } } : {}) })
      expect(response.statusCode, `${method} ${url}`).toBe(status)
      expectNoStore(response, `${method} ${url}`)
    }
  })
})
