import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { databasesUnderTest, type TestDatabase } from '../helpers/databases.js'
import { buildTestHubApp, signUpAndLogIn } from '../helpers/hub-app.js'

describe.each(databasesUnderTest())('hub smoke on $name', (database) => {
  let handle: TestDatabase
  let app: App
  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestHubApp(handle)
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })
  it('signs up, logs in, refreshes, issues a token, signs out', async () => {
    const user = await signUpAndLogIn(app)
    const refreshed = await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })
    expect(refreshed.statusCode, refreshed.body).toBe(200)
    const token = await app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(token.statusCode, token.body).toBe(200)
    const out = await app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })
    expect(out.statusCode, out.body).toBe(204)
    const after = await app.inject({ method: 'POST', url: '/api/auth/refresh', headers: user.headers })
    expect(after.statusCode, after.body).toBe(401)
    const missing = await app.inject({ method: 'GET', url: '/api/privacy/settings' })
    expect(missing.statusCode, missing.body).toBe(401)
  })
})
