import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { createGrantsRepository } from '../../src/shared/access-grants/repository.js'
import { SECURITY_EVENT_TYPES } from '../../src/shared/security-events/security-event-token.js'
import { issueSsoToken } from '../../src/hub/kernel/tokens/sso-tokens.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { HUB_ORIGIN } from '../helpers/hub-app.js'
import { freshKeyring, keysOf, securityEventToken, useTasksAppTrustingHub } from '../helpers/security-events.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'
import { createBrowserSessions } from '../../src/tasks/web/sessions.js'

const { accountPurged, sessionsRevoked } = SECURITY_EVENT_TYPES

describe.each(databasesUnderTest())('the task manager taking security events on $name', (database) => {
  const handle = useDatabase(database)
  const tasks = useTasksAppTrustingHub(handle)

  const push = (token: string, contentType = 'application/secevent+jwt') =>
    tasks.app.inject({ method: 'POST', url: '/events/hearth', headers: { 'content-type': contentType, accept: 'application/json' }, payload: token })
  const { createTask } = tasks
  const titlesOf = async (userId: string) =>
    (await tasks.app.inject({ url: '/tasks', headers: { 'x-user-id': userId } })).json<{ tasks: { title: string }[] }>().tasks.map((task) => task.title)
  const grantsOf = (userId: string) => createGrantsRepository(handle.current.db).list({ userId })

  it('deletes the tasks and access grants of a purged account, and only theirs, answering 202', async () => {
    await createTask('purged-user', 'Water the plants')
    await createTask('other-user', 'Feed the cat')
    // A listing caches the page; the purge must not leave it served.
    expect(await titlesOf('purged-user')).toEqual(['Water the plants'])
    expect(await grantsOf('purged-user')).toHaveLength(1)

    const response = await push(await securityEventToken(tasks.hubKeys, accountPurged, 'purged-user'))
    expect(response.statusCode).toBe(202)
    expect(response.body).toBe('')
    expect(await handle.current.db.selectFrom('tasks').select('title').where('assignee', '=', 'purged-user').execute()).toEqual([])
    expect(await grantsOf('purged-user')).toEqual([])
    expect(await titlesOf('other-user')).toEqual(['Feed the cat'])
    expect(await grantsOf('other-user')).toHaveLength(1)
  })

  it('acknowledges sessions-revoked with 202, ends the user’s page sessions and keeps the tasks', async () => {
    await createTask('signed-out-user', 'Call the plumber')
    const pageSessions = createBrowserSessions(handle.current.db)
    const ended = await pageSessions.start('signed-out-user', 'hub-sid', new Date())
    const kept = await pageSessions.start('other-user', 'other-sid', new Date())
    expect((await push(await securityEventToken(tasks.hubKeys, sessionsRevoked, 'signed-out-user'))).statusCode).toBe(202)
    expect(await titlesOf('signed-out-user')).toEqual(['Call the plumber'])
    expect(await pageSessions.find(ended.token, new Date())).toBeNull()
    expect(await pageSessions.find(kept.token, new Date())).toEqual({ userId: 'other-user' })
  })

  it('refuses a replayed event with 400 invalid_request, and does not act on it again', async () => {
    const token = await securityEventToken(tasks.hubKeys, accountPurged, 'replayed-user')
    expect((await push(token)).statusCode).toBe(202)
    await createTask('replayed-user', 'Made after the purge')
    const replay = await push(token)
    expect(replay.statusCode).toBe(400)
    expect(replay.json()).toEqual({ err: 'invalid_request', description: 'this jti was received before', error: 'this jti was received before' })
    expect(await titlesOf('replayed-user')).toEqual(['Made after the purge'])
  })

  it('refuses an event signed by a key the hub does not publish with 400 invalid_key', async () => {
    await createTask('forged-user', 'Keep me')
    const response = await push(await securityEventToken(await freshKeyring(), accountPurged, 'forged-user'))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ err: 'invalid_key' })
    expect(await titlesOf('forged-user')).toEqual(['Keep me'])
  })

  it('refuses another issuer, another audience, a stale or a future iat, each with its RFC 8935 code', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000)
    const cases = [
      [await securityEventToken(tasks.hubKeys, accountPurged, 'u', { issuer: 'https://other-hub.example' }), 'invalid_issuer'],
      [await securityEventToken(tasks.hubKeys, accountPurged, 'u', { audience: 'notes' }), 'invalid_audience'],
      [await securityEventToken(tasks.hubKeys, accountPurged, 'u', { at: hourAgo }), 'invalid_request'],
      [await securityEventToken(tasks.hubKeys, accountPurged, 'u', { at: new Date(Date.now() + 3_600_000) }), 'invalid_request']
    ] as const
    for (const [token, err] of cases) {
      const response = await push(token)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ err })
    }
  })

  it("refuses the hub's SSO token, signed by the same keys but not a SET, and a SET without one subject", async () => {
    const { token: ssoToken } = await issueSsoToken(tasks.hubKeys, HUB_ORIGIN, { userId: 'u', email: 'u@example.com', emailVerified: false, audience: 'tasks', plan: 'free', entitlements: [] }, new Date())
    expect((await push(ssoToken)).json()).toMatchObject({ err: 'invalid_request' })

    const { key, kid, alg } = await tasks.hubKeys.signingKey()
    const twoEvents = await new SignJWT({
      jti: 'two-events',
      events: { [accountPurged]: { subject: { format: 'opaque', id: 'a' } }, [sessionsRevoked]: { subject: { format: 'opaque', id: 'b' } } }
    })
      .setProtectedHeader({ alg, kid, typ: 'secevent+jwt' })
      .setIssuer(HUB_ORIGIN)
      .setAudience('tasks')
      .setIssuedAt()
      .sign(key)
    expect((await push(twoEvents)).json()).toEqual({ err: 'invalid_request', description: 'events must hold exactly one event', error: 'events must hold exactly one event' })
  })

  it('takes a verified event of a type it does not know with 202, and ignores it', async () => {
    await createTask('unknown-event-user', 'Still here')
    const { key, kid, alg } = await tasks.hubKeys.signingKey()
    const subject = { format: 'opaque', id: 'unknown-event-user' }
    const token = await new SignJWT({ jti: 'credential-change', sub_id: subject, events: { 'https://schemas.openid.net/secevent/risc/event-type/credential-change-required': { subject } } })
      .setProtectedHeader({ alg, kid, typ: 'secevent+jwt' })
      .setIssuer(HUB_ORIGIN)
      .setAudience('tasks')
      .setIssuedAt()
      .sign(key)
    expect((await push(token)).statusCode).toBe(202)
    expect(await titlesOf('unknown-event-user')).toEqual(['Still here'])
  })

  it('refuses a body that is not a SET sent as application/secevent+jwt', async () => {
    const json = await tasks.app.inject({ method: 'POST', url: '/events/hearth', payload: { token: 'x' } })
    expect(json.statusCode).toBe(400)
    expect(json.json()).toMatchObject({ err: 'invalid_request' })
    expect((await push('not.a.jwt')).json()).toMatchObject({ err: 'invalid_request' })
  })

  it.each([
    ['a JSON body that does not parse', 'application/json', '{', 400, 'Body is not valid JSON'],
    ['a body of another type', 'text/plain', 'hello', 415, 'Content-Type must be application/json'],
    ['a SET over the limit', 'application/secevent+jwt', 'e'.repeat(64 * 1024), 413, 'Body is too large']
  ])('refuses %s as RFC 8935 says, with the description also as error', async (_case, contentType, payload, status, description) => {
    const response = await push(payload, contentType)
    expect(response.statusCode).toBe(status)
    expect(response.json()).toEqual({ err: 'invalid_request', description, error: description })
  })
})

describe.each(databasesUnderTest())('the task manager remembering security events on $name', (database) => {
  const handle = useDatabase(database)

  it('forgets a jti once a token carrying it would be too old to verify, and takes a later delivery of it', async () => {
    const hubKeys = await freshKeyring()
    let clock = Date.now()
    const app = await buildTestTasksApp(handle.current.db, { hubKeys: keysOf(hubKeys), now: () => new Date(clock) })
    const push = async (at: Date) =>
      app.inject({
        method: 'POST',
        url: '/events/hearth',
        headers: { 'content-type': 'application/secevent+jwt' },
        payload: await securityEventToken(hubKeys, sessionsRevoked, 'u', { jti: 'redelivered', at })
      })
    try {
      expect((await push(new Date(clock))).statusCode).toBe(202)
      clock += 4 * 60_000
      expect((await push(new Date(clock))).statusCode).toBe(400)
      clock += 3 * 60_000
      expect((await push(new Date(clock))).statusCode).toBe(202)
    } finally {
      await app.close()
    }
  })

  it("answers 500, not 400, when the hub's keys cannot be fetched, so the hub tries again", async () => {
    const app = await buildTestTasksApp(handle.current.db, {
      hubKeys: async () => {
        throw new TypeError('fetch failed')
      }
    })
    try {
      const token = await securityEventToken(await freshKeyring(), accountPurged, 'u')
      const response = await app.inject({ method: 'POST', url: '/events/hearth', headers: { 'content-type': 'application/secevent+jwt' }, payload: token })
      expect(response.statusCode).toBe(500)
    } finally {
      await app.close()
    }
  })
})

describe.each(databasesUnderTest())('the task manager refusing tokens from before a revocation on $name', (database) => {
  const handle = useDatabase(database)

  it("refuses the user's SSO tokens issued up to the event, for their remaining life, and accepts newer ones", async () => {
    const hubKeys = await freshKeyring()
    let clock = Date.now()
    const app = await buildTestTasksApp(handle.current.db, { hubKeys: keysOf(hubKeys), now: () => new Date(clock), config: { auth: 'token' } })
    const tokenAt = async (userId: string, at: Date) => (await issueSsoToken(hubKeys, HUB_ORIGIN, { userId, email: `${userId}@example.com`, emailVerified: false, audience: 'tasks', plan: 'free', entitlements: [] }, at)).token
    const list = async (token: string) => (await app.inject({ url: '/tasks', headers: { authorization: `Bearer ${token}` } })).statusCode
    try {
      const before = await tokenAt('revoked-user', new Date(clock - 60_000))
      const bystander = await tokenAt('other-user', new Date(clock - 60_000))
      expect(await list(before)).toBe(200)
      const event = await securityEventToken(hubKeys, sessionsRevoked, 'revoked-user', { at: new Date(clock) })
      expect((await app.inject({ method: 'POST', url: '/events/hearth', headers: { 'content-type': 'application/secevent+jwt' }, payload: event })).statusCode).toBe(202)

      expect(await list(before)).toBe(401)
      expect(await list(bystander)).toBe(200)
      clock += 2_000
      expect(await list(await tokenAt('revoked-user', new Date(clock)))).toBe(200)
    } finally {
      await app.close()
    }
  })
})
