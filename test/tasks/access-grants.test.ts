import { describe, expect, it } from 'vitest'
import { createAccessResolver } from '../../src/shared/access-grants/access-resolver.js'
import { type GrantsRepository, createGrantsRepository } from '../../src/shared/access-grants/repository.js'
import { buildTasksApp } from '../../src/tasks/app.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { capturedLog } from '../helpers/captured-log.js'
import { TEST_TASKS_CONFIG, buildTestTasksApp, failingGrants } from '../helpers/tasks-app.js'

/** The real repository, counting the calls that may write. */
function countingGrants(grants: GrantsRepository) {
  const counts = { findOrCreateDefault: 0 }
  const counted: GrantsRepository = {
    ...grants,
    findOrCreateDefault: (userId, applicationId) => {
      counts.findOrCreateDefault++
      return grants.findOrCreateDefault(userId, applicationId)
    }
  }
  return { counted, counts }
}

describe.each(databasesUnderTest())('access grants on $name', (database) => {
  const handle = useDatabase(database)

  it('looks the grant up once for many requests of one user: the steady state does no grant work', async () => {
    const { counted, counts } = countingGrants(createGrantsRepository(handle.current.db))
    const app = await buildTestTasksApp(handle.current.db, { accessResolver: createAccessResolver(counted, { ttlMs: 60_000 }) })
    await Promise.all(Array.from({ length: 20 }, () => app.inject({ url: '/tasks', headers: { 'x-user-id': 'steady' } })))
    for (let i = 0; i < 20; i++) await app.inject({ url: '/tasks', headers: { 'x-user-id': 'steady' } })
    expect(counts.findOrCreateDefault).toBe(1)
    await app.close()
  })

  it('keeps the cache bounded', async () => {
    const { counted, counts } = countingGrants(createGrantsRepository(handle.current.db))
    const resolver = createAccessResolver(counted, { maxEntries: 2, ttlMs: 60_000 })
    for (const user of ['a', 'b', 'c', 'a']) await resolver.resolve(user, 'tasks')
    expect(counts.findOrCreateDefault).toBe(4)
  })

  it('sees a changed grant once the cache entry expires', async () => {
    const grants = createGrantsRepository(handle.current.db)
    const resolver = createAccessResolver(grants, { ttlMs: 1 })
    await resolver.resolve('changing', 'tasks')
    await grants.upsert({ userId: 'changing', applicationId: 'tasks', roles: ['member'], permissions: ['read'], grantedBy: 'test' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await resolver.resolve('changing', 'tasks')).permissions).toEqual(['read'])
  })

  it('lets the request continue when the grants store fails (spec rule 4)', async () => {
    const app = await buildTestTasksApp(handle.current.db, { accessResolver: failingGrants })
    const created = await app.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': 'rule-4' }, payload: { title: 'still works' } })
    expect(created.statusCode).toBe(201)
    expect((await app.inject({ url: '/tasks', headers: { 'x-user-id': 'rule-4' } })).statusCode).toBe(200)
    await app.close()
  })

  it('logs an error line "access check failed" when the grants store fails, and goes on', async () => {
    const log = capturedLog()
    const app = await buildTasksApp({ config: TEST_TASKS_CONFIG, db: handle.current.db, logger: log.logger, accessResolver: failingGrants })
    const response = await app.inject({ url: '/tasks', headers: { 'x-user-id': 'rule-4-logged' } })
    expect(response.statusCode).toBe(200)
    const failure = log.lines.find((line) => line.msg === 'access check failed')
    expect(failure).toMatchObject({ level: 50, err: { message: 'grants store unavailable' }, user: 'ru***ed' })
    expect(failure?.requestId).toEqual(response.headers['x-request-id'])
    await app.close()
  })

  it('still requires the header when the grants store fails', async () => {
    const app = await buildTestTasksApp(handle.current.db, { accessResolver: failingGrants })
    expect((await app.inject({ url: '/tasks' })).statusCode).toBe(401)
    await app.close()
  })

  describe('with PERMISSIONS_ENABLED', () => {
    const grants = () => createGrantsRepository(handle.current.db)
    const restrict = (userId: string, permissions: ('read' | 'write' | 'delete')[]) =>
      grants().upsert({ userId, applicationId: 'tasks', roles: ['member'], permissions, grantedBy: 'test' })

    it('allows every operation under the default grant', async () => {
      const app = await buildTestTasksApp(handle.current.db, { config: { permissionsEnabled: true } })
      const as = { 'x-user-id': 'full' }
      const task = (await app.inject({ method: 'POST', url: '/tasks', headers: as, payload: { title: 't' } })).json()
      expect((await app.inject({ url: '/tasks', headers: as })).statusCode).toBe(200)
      expect((await app.inject({ url: `/tasks/${task.id}`, headers: as })).statusCode).toBe(200)
      expect((await app.inject({ method: 'PUT', url: `/tasks/${task.id}`, headers: as, payload: { status: 'completed' } })).statusCode).toBe(200)
      expect((await app.inject({ method: 'DELETE', url: `/tasks/${task.id}`, headers: as })).statusCode).toBe(204)
      await app.close()
    })

    it.each([
      ['GET', '/tasks', 'read'],
      ['GET', '/tasks/some-id', 'read'],
      ['POST', '/tasks', 'write'],
      ['PUT', '/tasks/some-id', 'write'],
      ['DELETE', '/tasks/some-id', 'delete']
    ] as const)('%s %s needs %s, else 403 "Permission denied"', async (method, url, needed) => {
      const user = `lacks-${needed}-${method}`
      await restrict(user, (['read', 'write', 'delete'] as const).filter((permission) => permission !== needed))
      const app = await buildTestTasksApp(handle.current.db, { config: { permissionsEnabled: true } })
      const payload = method === 'POST' || method === 'PUT' ? { title: 'x' } : undefined
      const response = await app.inject({ method, url, headers: { 'x-user-id': user }, payload })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ error: 'Permission denied' })
      await app.close()
    })

    it.each([
      ['an invalid body', 'application/json', JSON.stringify({ title: 42, status: 'done' })],
      ['malformed JSON', 'application/json', '{not json'],
      ['a body that is not JSON', 'text/plain', 'hello']
    ])('answers 403 before looking at the body: a user lacking write who sends %s', async (_case, contentType, payload) => {
      await restrict('no-writer', ['read', 'delete'])
      const app = await buildTestTasksApp(handle.current.db, { config: { permissionsEnabled: true } })
      const headers = { 'x-user-id': 'no-writer', 'content-type': contentType }
      for (const [method, url] of [
        ['POST', '/tasks'],
        ['PUT', '/tasks/not-a-task-id']
      ] as const) {
        const response = await app.inject({ method, url, headers, payload })
        expect(response.statusCode).toBe(403)
        expect(response.json()).toEqual({ error: 'Permission denied' })
      }
      await app.close()
    })

    it('a read-only user can list but not create', async () => {
      await restrict('reader', ['read'])
      const app = await buildTestTasksApp(handle.current.db, { config: { permissionsEnabled: true } })
      expect((await app.inject({ url: '/tasks', headers: { 'x-user-id': 'reader' } })).statusCode).toBe(200)
      const create = await app.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': 'reader' }, payload: { title: 'no' } })
      expect(create.statusCode).toBe(403)
      await app.close()
    })

    it('fails closed with 503 {error} when the grants store fails', async () => {
      const app = await buildTestTasksApp(handle.current.db, { config: { permissionsEnabled: true }, accessResolver: failingGrants })
      const response = await app.inject({ url: '/tasks', headers: { 'x-user-id': 'closed' } })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toEqual({ error: 'Access grants are unavailable' })
      await app.close()
    })
  })
})
