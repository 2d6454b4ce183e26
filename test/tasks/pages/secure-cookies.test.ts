import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../../../src/shared/http/server.js'
import { buildTestTasksApp } from '../../helpers/tasks-app.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

describe.each(databasesUnderTest())('The pages’ cookies, HSTS and TASKS_PUBLIC_URL, on $name', (database) => {
  const handle = useDatabase(database)
  let app: App | undefined
  afterEach(() => app?.close())

  const languageCookieAt = async (publicUrl: string) => {
    app = await buildTestTasksApp(handle.current.db, { config: { publicUrl } })
    const switched = await app.inject({ method: 'GET', url: '/language?lang=es' })
    expect(switched.statusCode).toBe(303)
    return switched.headers['set-cookie']
  }

  it('marks the cookies Secure when the task manager is reached over https', async () => {
    expect(await languageCookieAt('https://tasks.example.org')).toMatch(/^lang=es;.*; Secure/)
  })

  it('leaves them without Secure over plain http (a local set-up)', async () => {
    const cookie = await languageCookieAt('http://localhost')
    expect(cookie).toMatch(/^lang=es;/)
    expect(cookie).not.toMatch(/Secure/)
  })

  it('deletes its cookies Secure too over https: the pending sign-in at the callback', async () => {
    app = await buildTestTasksApp(handle.current.db, { config: { publicUrl: 'https://tasks.example.org', allowedHosts: ['tasks.example.org'] } })
    const callback = await app.inject({ method: 'GET', url: '/auth/callback', headers: { host: 'tasks.example.org' } })
    expect(callback.statusCode).toBe(400)
    expect(callback.headers['set-cookie']).toMatch(/^tasks-sign-in=; Max-Age=0; Path=\/auth\/callback;.*; HttpOnly; Secure; SameSite=Lax$/)
  })

  it('asks for https for a year on every answer when the task manager is reached over https, a refusal too', async () => {
    app = await buildTestTasksApp(handle.current.db, { config: { publicUrl: 'https://tasks.example.org', allowedHosts: ['tasks.example.org'] } })
    for (const [url, host, status] of [['/', 'tasks.example.org', 303], ['/tasks', 'tasks.example.org', 401], ['/', 'elsewhere.example', 421]] as const) {
      const answer = await app.inject({ method: 'GET', url, headers: { host } })
      expect(answer.statusCode, url).toBe(status)
      expect(answer.headers['strict-transport-security'], url).toBe('max-age=31536000')
    }
  })

  it('sends no HSTS over plain http, where a browser would ignore it', async () => {
    app = await buildTestTasksApp(handle.current.db, { config: { publicUrl: 'http://localhost' } })
    expect((await app.inject({ method: 'GET', url: '/health' })).headers['strict-transport-security']).toBeUndefined()
  })
})
