import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../../../src/shared/http/server.js'
import { SIGNED_OUT_PATH } from '../../../src/tasks/web/hub-sign-in.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'
import { buildTestTasksApp } from '../../helpers/tasks-app.js'

/** The task manager serves the family's icon too, which its pages link under their own CSP. */
describe('the task manager’s icon', () => {
  const [database] = databasesUnderTest()
  const handle = useDatabase(database!)
  let app: App | undefined
  afterEach(() => app?.close())

  it('serves /favicon.svg, answers /favicon.ico with no content, and links the icon from its pages', async () => {
    app = await buildTestTasksApp(handle.current.db)
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(icon.statusCode).toBe(200)
    expect(icon.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(icon.body).toMatch(/^<svg /)
    expect((await app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(204)

    const page = await app.inject({ method: 'GET', url: SIGNED_OUT_PATH })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>')
    expect(page.headers['content-security-policy']).toMatch(/img-src 'self'/)
  })
})
