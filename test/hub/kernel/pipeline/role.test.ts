import { describe, expect, it } from 'vitest'
import { ADMINISTRATORS_ONLY, roleStage } from '../../../../src/hub/kernel/pipeline/role.js'
import { routeOptions } from '../../../../src/hub/kernel/pipeline/route-options.js'
import { sessionStage } from '../../../../src/hub/kernel/pipeline/session.js'
import type { Sessions } from '../../../../src/hub/kernel/sessions/sessions.js'
import { createServer } from '../../../../src/shared/http/server.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { makeAdministrator } from '../../../helpers/administrators.js'
import { signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('the administrators’ space on $name', (database) => {
  const hub = useHubApp(database)

  it('answers a path under /api/admin 401 signed out, 403 to a member and, for an administrator, what the path is', async () => {
    const url = '/api/admin/no-such-thing'
    const signedOut = await hub.app.inject({ url })
    expect(signedOut.statusCode).toBe(401)
    expect(signedOut.json()).toHaveProperty('error')

    const member = await signUpAndLogIn(hub.app)
    const refused = await hub.app.inject({ url, headers: member.headers })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ error: ADMINISTRATORS_ONLY })
    expect((await hub.app.inject({ url: '/api/account', headers: member.headers })).json()).toMatchObject({ role: 'member' })

    await makeAdministrator(hub.handle.db, member.userId)
    expect((await hub.app.inject({ url, headers: member.headers })).statusCode).toBe(404)
    expect((await hub.app.inject({ url: '/api/account', headers: member.headers })).json()).toMatchObject({ role: 'admin' })
  })

  it('reads the role on every request: a demoted administrator is refused at once', async () => {
    const admin = await signUpAndLogIn(hub.app)
    await makeAdministrator(hub.handle.db, admin.userId)
    expect((await hub.app.inject({ url: '/api/admin/no-such-thing', headers: admin.headers })).statusCode).toBe(404)
    await hub.handle.db.updateTable('users').set({ role: 'member' }).where('id', '=', admin.userId).execute()
    expect((await hub.app.inject({ url: '/api/admin/no-such-thing', headers: admin.headers })).statusCode).toBe(403)
  })
})

describe.each(databasesUnderTest())('a route stating the role without the session on $name', (database) => {
  const hub = useHubApp(database)

  it('is refused 401 even with a signed-in administrator’s cookie: the stage fails closed', async () => {
    const app = await createServer({ logger: createLogger('silent'), openApi: { title: 'test', description: 'test', version: '1' } })
    await app.register(routeOptions)
    await app.register(sessionStage, { sessions: { validate: async () => null } as unknown as Sessions, now: () => new Date() })
    await app.register(roleStage, { db: hub.handle.db })
    app.get('/forgot-the-session', { config: { role: 'admin' } }, async () => ({ reached: true }))
    const refused = await app.inject({ url: '/forgot-the-session' })
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ error: 'Sign in required' })
    await app.close()
  })
})
