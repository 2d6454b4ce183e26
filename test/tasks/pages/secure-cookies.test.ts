import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../../../src/shared/http/server.js'
import { buildTestTasksApp } from '../../helpers/tasks-app.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

describe.each(databasesUnderTest())('The pages’ cookies and TASKS_PUBLIC_URL, on $name', (database) => {
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
})
