import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/shared/database/connect.js'
import type { App } from '../../src/shared/http/server.js'
import { cachingListReads } from '../../src/tasks/list-cache.js'
import { type TaskPage, createTasksRepository } from '../../src/tasks/repository.js'
import { newTask } from '../../src/tasks/rules.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

/** A promise and the function that settles it (Promise.withResolvers needs Node 22). */
function signal() {
  let resolve = () => {}
  const promise = new Promise<void>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}

/**
 * Lists may be answered from memory (see list-cache.ts); whatever changes a user's tasks, here or
 * in another process, shows in that user's next list.
 */
describe.each(databasesUnderTest())('cached lists on $name', (database) => {
  const handle = useDatabase(database)
  let app: App
  let userCount = 0
  let user: string

  beforeAll(async () => {
    app = await buildTestTasksApp(handle.current.db)
  })
  afterAll(async () => {
    await app.close()
  })
  beforeEach(() => {
    user = `cache-user-${++userCount}`
  })

  const headers = () => ({ 'x-user-id': user })
  const create = async (title: string) =>
    (await app.inject({ method: 'POST', url: '/tasks', headers: headers(), payload: { title } })).json()
  const titles = async (query = '') =>
    (await app.inject({ url: `/tasks${query}`, headers: headers() })).json().tasks.map((task: { title: string }) => task.title)

  it('shows every create, update and delete in the next list, however often the list was read', async () => {
    const first = await create('first')
    expect(await titles()).toEqual(['first'])
    expect(await titles()).toEqual(['first'])

    await create('second')
    expect(await titles()).toContain('second')

    await app.inject({ method: 'PUT', url: `/tasks/${first.id}`, headers: headers(), payload: { title: 'renamed' } })
    expect(await titles()).toContain('renamed')

    await app.inject({ method: 'DELETE', url: `/tasks/${first.id}`, headers: headers() })
    expect(await titles()).toEqual(['second'])
  })

  it('answers a page served again exactly as the first time, as JSON', async () => {
    await create('one')
    await create('two')
    const first = await app.inject({ url: '/tasks?limit=1', headers: headers() })
    const again = await app.inject({ url: '/tasks?limit=1', headers: headers() })
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(again.body).toBe(first.body)
    expect(again.json()).toMatchObject({ hasMore: true, nextCursor: expect.any(String) })
  })

  it("keeps each user's pages apart", async () => {
    await create('mine')
    expect(await titles()).toEqual(['mine'])
    const owner = user
    user = `${owner}-neighbour`
    expect(await titles()).toEqual([])
    await create('theirs')
    user = owner
    expect(await titles()).toEqual(['mine'])
  })

  it('shows a task another process wrote to the same database', async () => {
    await create('from this process')
    expect(await titles('?limit=10')).toEqual(['from this process'])
    expect(await titles('?limit=10')).toEqual(['from this process'])

    const { dataDir, databaseUrl, schema } = handle.current
    const other = openDatabase({ dataDir, databaseUrl, schema, maxConnections: 1 })
    try {
      const later = new Date(Date.now() + 1000)
      await createTasksRepository(other.db).insert(newTask({ title: 'from another process' }, user, later))
    } finally {
      await other.db.destroy()
    }

    expect(await titles('?limit=10')).toEqual(['from another process', 'from this process'])
  })

  it('shows the tasks of an insert of several at once', async () => {
    const tasks = cachingListReads(createTasksRepository(handle.current.db), handle.current.db)
    for (let read = 0; read < 2; read++) expect((await tasks.listOwned(user, { limit: 10 })).tasks).toEqual([])
    const stored = [newTask({ title: 'one of two' }, user, new Date()), newTask({ title: 'two of two' }, user, new Date())]
    await tasks.insertAll(stored)
    expect((await tasks.listOwned(user, { limit: 10 })).tasks).toHaveLength(2)
  })

  it('keeps nothing from a read that overlapped a write, so the write is never hidden', async () => {
    const repository = createTasksRepository(handle.current.db)
    const rowsRead = signal()
    const handBack = signal()
    let slow = false
    const tasks = cachingListReads(
      {
        ...repository,
        // A slow read gets its rows at once, then waits before handing them back.
        async listOwned(userId, options): Promise<TaskPage> {
          const page = await repository.listOwned(userId, options)
          if (slow) {
            rowsRead.resolve()
            await handBack.promise
          }
          return page
        }
      },
      handle.current.db
    )
    // The first page served from memory clears everything, as nothing says what was seen before:
    // get that done first, so that only the guard against overlapping reads protects the list.
    for (let read = 0; read < 2; read++) await tasks.listOwned(`${user}-elsewhere`, { limit: 10 })

    slow = true
    const slowRead = tasks.listOwned(user, { limit: 10 })
    await rowsRead.promise
    await tasks.insert(newTask({ title: 'written meanwhile' }, user, new Date()))
    handBack.resolve()
    expect((await slowRead).tasks).toEqual([])
    slow = false

    const next = await tasks.listOwned(user, { limit: 10 })
    expect(next.tasks.map((task) => task.title)).toEqual(['written meanwhile'])
  })
})
