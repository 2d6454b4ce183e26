import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { signExportRequest } from '../../src/hub/features/export/application-exports.js'
import type { Keyring } from '../../src/hub/kernel/tokens/keyring.js'
import { EXPORT_REQUEST_LIFETIME_SECONDS } from '../../src/shared/export/export-request.js'
import { CLOCK_SKEW_SECONDS } from '../../src/shared/sso/token-verifier.js'
import { REPLAYED_EXPORT_REQUEST } from '../../src/tasks/routes/export.js'
import { RECEIVED_EVENT_MEMORY_MS } from '../../src/tasks/security-events/received-events.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { HUB_ORIGIN } from '../helpers/hub-app.js'
import { freshKeyring, useTasksAppTrustingHub } from '../helpers/security-events.js'

type ExportAnswer = { datasets: Record<string, { id: string; recordedAt: string | null; fields: Record<string, unknown> }[]> }

describe.each(databasesUnderTest())("the task manager answering the hub's export requests on $name", (database) => {
  const handle = useDatabase(database)
  const tasks = useTasksAppTrustingHub(handle)

  const ask = (token: string) => tasks.app.inject({ method: 'GET', url: '/export/hearth', headers: { authorization: `Bearer ${token}` } })
  const request = (userId: string, at = new Date()) => signExportRequest(tasks.hubKeys, HUB_ORIGIN, 'tasks', userId, at)
  const { createTask } = tasks
  /** A token as the hub signs one, but for the claims or header given. */
  const craft = async (keyring: Keyring, { typ = 'hearth-export+jwt', aud = 'tasks', scope = 'export' as string | null } = {}) => {
    const { key, kid, alg } = await keyring.signingKey()
    return new SignJWT(scope === null ? {} : { scope })
      .setProtectedHeader({ alg, kid, typ })
      .setIssuer(HUB_ORIGIN)
      .setAudience(aud)
      .setSubject('crafted-user')
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key)
  }

  it("answers the subject's tasks and access grants, and no one else's", async () => {
    await createTask('exported-user', 'Water the plants')
    await createTask('exported-user', 'Call the plumber')
    await createTask('other-user', 'Not yours')
    const response = await ask(await request('exported-user'))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const { datasets } = response.json<ExportAnswer>()
    expect(Object.keys(datasets)).toEqual(['tasks', 'accessGrants'])
    expect(datasets.tasks?.map(({ fields }) => fields.title).sort()).toEqual(['Call the plumber', 'Water the plants'])
    expect(datasets.tasks?.[0]).toEqual({
      id: expect.any(String),
      recordedAt: expect.any(String),
      fields: { title: expect.any(String), description: '', status: 'pending', updatedAt: expect.any(String) }
    })
    expect(datasets.accessGrants).toEqual([
      { id: expect.any(String), recordedAt: expect.any(String), fields: expect.objectContaining({ applicationId: 'tasks', roles: ['member'] }) }
    ])
  })

  it('answers an empty export for someone it holds nothing about', async () => {
    const response = await ask(await request('stranger'))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ datasets: { tasks: [], accessGrants: [] } })
  })

  it('answers each token once: a replay is refused with 401', async () => {
    const token = await request('exported-user')
    expect((await ask(token)).statusCode).toBe(200)
    const replay = await ask(token)
    expect(replay.statusCode).toBe(401)
    expect(replay.json()).toEqual({ error: REPLAYED_EXPORT_REQUEST })
  })

  it('remembers a used token for longer than the token is accepted', () => {
    expect(RECEIVED_EVENT_MEMORY_MS).toBeGreaterThanOrEqual((EXPORT_REQUEST_LIFETIME_SECONDS + 2 * CLOCK_SKEW_SECONDS) * 1000)
  })

  it.each([
    ['another audience', { aud: 'notes' }],
    ['no export scope', { scope: 'read' }],
    ['no scope at all', { scope: null }],
    ['an SSO token type', { typ: 'hearth-sso+jwt' }],
    ['a security event type', { typ: 'secevent+jwt' }]
  ])('refuses a token with %s: 401 invalid_token', async (_case, claims) => {
    const response = await ask(await craft(tasks.hubKeys, claims))
    expect(response.statusCode).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Bearer realm="hearth", error="invalid_token"')
    expect(response.json()).toEqual({ error: expect.any(String) })
  })

  it('refuses an expired token and one signed by a key the hub does not publish', async () => {
    const expired = await ask(await request('exported-user', new Date(Date.now() - 10 * 60_000)))
    expect(expired.statusCode).toBe(401)
    expect(expired.json()).toEqual({ error: 'export request has expired' })
    const foreign = await ask(await signExportRequest(await freshKeyring(), HUB_ORIGIN, 'tasks', 'exported-user', new Date()))
    expect(foreign.statusCode).toBe(401)
    expect(foreign.json()).toEqual({ error: 'export request is invalid' })
    expect((await ask(await craft(await freshKeyring()))).statusCode).toBe(401)
  })

  it('refuses a request without a Bearer token', async () => {
    for (const headers of [{}, { authorization: 'Basic dGFza3M6dGFza3M=' }]) {
      const response = await tasks.app.inject({ method: 'GET', url: '/export/hearth', headers })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: expect.any(String) })
    }
  })
})
