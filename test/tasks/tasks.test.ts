import { sql } from 'kysely'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Creation times order the list; tasks made within one millisecond are ordered by id instead. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2))

describe.each(databasesUnderTest())('task manager on $name', (database) => {
  const suite = useTasksApp(database)
  let userCount = 0
  /** A fresh user per test keeps tests independent on one shared database. */
  let user: string

  beforeEach(() => {
    user = `user-${++userCount}`
  })

  const as = (id: string) => ({ 'x-user-id': id })
  async function create(body: object = { title: 'Water the plants' }, owner = user) {
    const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers: as(owner), payload: body })
    expect(response.statusCode).toBe(201)
    return response.json()
  }
  const put = (id: string, payload: unknown, owner = user) =>
    suite.app.inject({ method: 'PUT', url: `/tasks/${id}`, headers: as(owner), payload: payload as object })
  const get = (id: string, owner = user) => suite.app.inject({ url: `/tasks/${id}`, headers: as(owner) })

  describe('health', () => {
    it('answers {status: "ok"} without any identity', async () => {
      const response = await suite.app.inject({ url: '/health' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ status: 'ok' })
    })
  })

  describe('access check', () => {
    const routes = [
      ['GET', '/tasks'],
      ['POST', '/tasks'],
      ['GET', '/tasks/any-id'],
      ['PUT', '/tasks/any-id'],
      ['DELETE', '/tasks/any-id']
    ] as const

    it.each(routes)('%s %s without x-user-id answers 401', async (method, url) => {
      const response = await suite.app.inject({ method, url, payload: method === 'POST' || method === 'PUT' ? { title: 'x' } : undefined })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: 'x-user-id header is required' })
    })

    it('treats an empty x-user-id as missing', async () => {
      const response = await suite.app.inject({ url: '/tasks', headers: { 'x-user-id': '  ' } })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toEqual({ error: 'x-user-id header is required' })
    })

    it('refuses an overlong x-user-id with 400', async () => {
      const response = await suite.app.inject({ url: '/tasks', headers: as('u'.repeat(257)) })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toMatch(/x-user-id/)
    })

    it('checks identity before reading the body', async () => {
      const response = await suite.app.inject({
        method: 'POST',
        url: '/tasks',
        headers: { 'content-type': 'application/json' },
        payload: '{not json'
      })
      expect(response.statusCode).toBe(401)
    })

    it('grants the default access on first use, stored once', async () => {
      await suite.app.inject({ url: '/tasks', headers: as(user) })
      await suite.app.inject({ url: '/tasks', headers: as(user) })
      const rows = await suite.db.selectFrom('accessGrants').selectAll().where('userId', '=', user).execute()
      expect(rows).toHaveLength(1)
      const [grant] = rows
      expect(grant).toMatchObject({ applicationId: 'tasks', grantedBy: 'system' })
      expect(JSON.parse(grant!.roles)).toEqual(['member'])
      expect(JSON.parse(grant!.permissions)).toEqual(['read', 'write', 'delete'])
      expect(grant!.createdAt).toMatch(ISO_MS_UTC)
    })
  })

  describe('POST /tasks', () => {
    it('creates a pending task assigned to the caller, with server-set id and timestamps', async () => {
      const before = Date.now()
      const task = await create({ title: 'Buy bread', description: 'Rye' })
      expect(task).toEqual({
        id: expect.stringMatching(UUID),
        title: 'Buy bread',
        description: 'Rye',
        status: 'pending',
        assignee: user,
        createdAt: expect.stringMatching(ISO_MS_UTC),
        updatedAt: task.createdAt
      })
      expect(Date.parse(task.createdAt)).toBeGreaterThanOrEqual(before - 1)
    })

    it('defaults the description to an empty string', async () => {
      expect((await create({ title: 'No description' })).description).toBe('')
    })

    it('ignores client-sent id, status, assignee and timestamps', async () => {
      const task = await create({
        title: 'Mine',
        id: 'chosen-id',
        status: 'completed',
        assignee: 'someone-else',
        createdAt: '2000-01-01T00:00:00.000Z',
        updatedAt: '2000-01-01T00:00:00.000Z'
      })
      expect(task.id).toMatch(UUID)
      expect(task.status).toBe('pending')
      expect(task.assignee).toBe(user)
      expect(task.createdAt).not.toBe('2000-01-01T00:00:00.000Z')
    })

    it('gives every task a distinct random id', async () => {
      const ids = new Set([(await create()).id, (await create()).id, (await create()).id])
      expect(ids.size).toBe(3)
    })

    it.each([
      ['missing', {}],
      ['empty', { title: '' }],
      ['blank', { title: ' \t\n ' }],
      ['a number', { title: 42 }],
      ['null', { title: null }],
      ['an array', { title: [] }],
      ['an object', { title: { text: 'x' } }]
    ])('answers 400 "Title is required" when the title is %s', async (_case, body) => {
      const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers: as(user), payload: body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: 'Title is required' })
    })

    it.each([
      ['a title over 500 characters', { title: 't'.repeat(501) }, 'Title must be at most 500 characters'],
      ['a description that is not a string', { title: 'x', description: ['a'] }, 'Description must be a string'],
      ['a description over 10000 characters', { title: 'x', description: 'd'.repeat(10_001) }, 'Description must be at most 10000 characters']
    ])('answers 400 naming the field for %s, and stores nothing', async (_case, body, error) => {
      const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers: as(user), payload: body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error })
      const list = await suite.app.inject({ url: '/tasks', headers: as(user) })
      expect(list.json().tasks).toEqual([])
    })

    it('accepts a title of exactly 500 characters and a description of 10000', async () => {
      const task = await create({ title: 't'.repeat(500), description: 'd'.repeat(10_000) })
      expect(task.title).toHaveLength(500)
    })
  })

  describe('bodies that are not a JSON object', () => {
    it.each([
      ['malformed JSON', '{"title": ', 'Body is not valid JSON'],
      ['an array', '[{"title":"x"}]', 'Body must be an object'],
      ['a string', '"title"', 'Body must be an object'],
      ['null', 'null', 'Body must be an object']
    ])('answers 400 {error} for %s', async (_case, payload, error) => {
      const response = await suite.app.inject({
        method: 'POST',
        url: '/tasks',
        headers: { ...as(user), 'content-type': 'application/json' },
        payload
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error })
    })

    it('answers 413 {error} for a body over 1 MiB', async () => {
      const response = await suite.app.inject({
        method: 'POST',
        url: '/tasks',
        headers: as(user),
        payload: { title: 'big', description: 'x'.repeat(1024 * 1024) }
      })
      expect(response.statusCode).toBe(413)
      expect(response.json()).toEqual({ error: 'Body is too large' })
    })

    it('answers 415 {error} for a body that is not JSON', async () => {
      const response = await suite.app.inject({
        method: 'POST',
        url: '/tasks',
        headers: { ...as(user), 'content-type': 'text/plain' },
        payload: 'title=x'
      })
      expect(response.statusCode).toBe(415)
      expect(response.json()).toEqual({ error: 'Content-Type must be application/json' })
    })
  })

  describe('GET /tasks/:taskId', () => {
    it('returns the task', async () => {
      const task = await create()
      const response = await get(task.id)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual(task)
    })

    it('answers 404 "Task not found" for an unknown id', async () => {
      const response = await get('00000000-0000-4000-8000-000000000000')
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
    })

    it("answers exactly the same 404 for another user's task", async () => {
      const task = await create({ title: 'Private' }, 'owner')
      const response = await get(task.id, user)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
    })
  })

  describe('PUT /tasks/:taskId (spec rule 1)', () => {
    it('applies title, description and status, re-reads the task, and moves updatedAt only', async () => {
      const task = await create({ title: 'Old', description: 'old' })
      const response = await put(task.id, { title: 'New', description: 'new', status: 'in-progress' })
      expect(response.statusCode).toBe(200)
      const updated = response.json()
      expect(updated).toMatchObject({ id: task.id, title: 'New', description: 'new', status: 'in-progress', assignee: user })
      expect(updated.createdAt).toBe(task.createdAt)
      expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(task.updatedAt))
      expect((await get(task.id)).json()).toEqual(updated)
    })

    it('changes updatedAt on every successful PUT, even an empty one', async () => {
      const task = await create()
      const first = (await put(task.id, {})).json()
      const second = (await put(task.id, {})).json()
      expect(first.updatedAt).not.toBe(task.updatedAt)
      expect(second.updatedAt > first.updatedAt).toBe(true)
      expect(second.createdAt).toBe(task.createdAt)
    })

    it('moves updatedAt forward on every one of many concurrent PUTs of one task', async () => {
      const task = await create()
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => put(task.id, { description: `d${i}` })))
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200))
      const stamps = responses.map((response) => response.json().updatedAt as string)
      expect(new Set(stamps).size).toBe(20)
      const sorted = [...stamps].sort()
      expect(sorted[0]! > task.updatedAt).toBe(true)
      expect((await get(task.id)).json().updatedAt).toBe(sorted.at(-1))
    })

    it('ignores an empty title and an empty status', async () => {
      const task = await create({ title: 'Keep me' })
      const updated = (await put(task.id, { title: '', status: '' })).json()
      expect(updated.title).toBe('Keep me')
      expect(updated.status).toBe('pending')
    })

    it('applies an empty description', async () => {
      const task = await create({ title: 'x', description: 'something' })
      expect((await put(task.id, { description: '' })).json().description).toBe('')
    })

    it('leaves absent fields unchanged', async () => {
      const task = await create({ title: 'Title', description: 'Description' })
      const updated = (await put(task.id, { status: 'completed' })).json()
      expect(updated).toMatchObject({ title: 'Title', description: 'Description', status: 'completed' })
    })

    it.each(['pending', 'in-progress', 'completed'])('accepts the status %s from any state', async (status) => {
      const task = await create()
      await put(task.id, { status: 'completed' })
      expect((await put(task.id, { status })).json().status).toBe(status)
    })

    it.each([
      ['an unknown status', { status: 'done' }, 'Status must be one of: pending, in-progress, completed'],
      ['a status of the wrong type', { status: true }, 'Status must be a string'],
      ['a title of the wrong type', { title: 7 }, 'Title must be a string'],
      ['a blank title', { title: '   ' }, 'Title must not be blank'],
      ['a description of the wrong type', { description: null }, 'Description must be a string'],
      ['a title over 500 characters', { title: 'x'.repeat(501) }, 'Title must be at most 500 characters']
    ])('answers 400 for %s and changes nothing, not even the valid fields', async (_case, body, error) => {
      const task = await create({ title: 'Unchanged', description: 'same' })
      const response = await put(task.id, { description: 'changed', ...body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error })
      expect((await get(task.id)).json()).toEqual(task)
    })

    it('answers 400 for a body that is not an object', async () => {
      const task = await create()
      const response = await put(task.id, ['status'])
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: 'Body must be an object' })
    })

    it('answers 404 "Task not found" for an unknown id', async () => {
      const response = await put('no-such-task', { title: 'x' })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
    })

    it("answers 404 for another user's task and leaves it alone", async () => {
      const task = await create({ title: 'Theirs' }, 'owner-of-put')
      const response = await put(task.id, { title: 'Hijacked' }, user)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
      expect((await get(task.id, 'owner-of-put')).json().title).toBe('Theirs')
    })
  })

  describe('DELETE /tasks/:taskId', () => {
    it('answers 204 with an empty body, and the task is gone', async () => {
      const task = await create()
      const response = await suite.app.inject({ method: 'DELETE', url: `/tasks/${task.id}`, headers: as(user) })
      expect(response.statusCode).toBe(204)
      expect(response.body).toBe('')
      expect((await get(task.id)).statusCode).toBe(404)
    })

    it('accepts an empty body labelled as JSON, as many clients send with DELETE', async () => {
      const task = await create()
      const response = await suite.app.inject({
        method: 'DELETE',
        url: `/tasks/${task.id}`,
        headers: { ...as(user), 'content-type': 'application/json' },
        payload: ''
      })
      expect(response.statusCode).toBe(204)
    })

    it('answers 404 "Task not found" for an unknown id', async () => {
      const response = await suite.app.inject({ method: 'DELETE', url: '/tasks/nothing', headers: as(user) })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
    })

    it("answers 404 for another user's task and does not delete it", async () => {
      const task = await create({ title: 'Keep' }, 'owner-of-delete')
      const response = await suite.app.inject({ method: 'DELETE', url: `/tasks/${task.id}`, headers: as(user) })
      expect(response.statusCode).toBe(404)
      expect((await get(task.id, 'owner-of-delete')).statusCode).toBe(200)
    })
  })

  describe('GET /tasks', () => {
    const list = (query = '', owner = user) => suite.app.inject({ url: `/tasks${query}`, headers: as(owner) })

    it("lists only the caller's tasks, newest first", async () => {
      const first = await create({ title: 'first' })
      await nextMillisecond()
      const second = await create({ title: 'second' })
      await create({ title: 'not mine' }, `${user}-neighbour`)
      const response = await list()
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ tasks: [second, first], hasMore: false, nextCursor: null })
    })

    it('pages with limit and an opaque cursor until hasMore is false', async () => {
      const created = []
      for (let i = 0; i < 5; i++) {
        created.push(await create({ title: `task ${i}` }))
        await nextMillisecond()
      }
      const page1 = (await list('?limit=2')).json()
      expect(page1.tasks.map((t: { title: string }) => t.title)).toEqual(['task 4', 'task 3'])
      expect(page1.hasMore).toBe(true)
      const page2 = (await list(`?limit=2&cursor=${page1.nextCursor}`)).json()
      expect(page2.tasks.map((t: { title: string }) => t.title)).toEqual(['task 2', 'task 1'])
      const page3 = (await list(`?limit=2&cursor=${page2.nextCursor}`)).json()
      expect(page3).toEqual({ tasks: [created[0]], hasMore: false, nextCursor: null })
    })

    it('defaults to 50 per page', async () => {
      await Promise.all(Array.from({ length: 51 }, (_, i) => create({ title: `t${i}` })))
      const page = (await list()).json()
      expect(page.tasks).toHaveLength(50)
      expect(page.hasMore).toBe(true)
    })

    it('filters by status', async () => {
      const done = await create({ title: 'done' })
      await put(done.id, { status: 'completed' })
      await create({ title: 'open' })
      await nextMillisecond()
      const page = (await list('?status=completed')).json()
      expect(page.tasks.map((t: { title: string }) => t.title)).toEqual(['done'])
    })

    it.each([
      ['?limit=0', 'Limit must be at least 1'],
      ['?limit=101', 'Limit must be at most 100'],
      ['?limit=ten', 'Limit must be an integer'],
      ['?status=finished', 'Status must be one of: pending, in-progress, completed'],
      ['?cursor=not-a-cursor', 'Cursor is invalid'],
      [`?cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`, 'Cursor is invalid']
    ])('answers 400 {error} for %s', async (query, error) => {
      const response = await list(query)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error })
    })
  })

  it('stores 100 concurrent creates by one user, each listed exactly once across pages', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        suite.app.inject({ method: 'POST', url: '/tasks', headers: as(user), payload: { title: `concurrent ${i}` } })
      )
    )
    expect(responses.every((response) => response.statusCode === 201)).toBe(true)
    const createdIds = new Set(responses.map((response) => response.json().id as string))
    expect(createdIds.size).toBe(100)

    const listed: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `?limit=7&cursor=${cursor}` : '?limit=7'
      const page = (await suite.app.inject({ url: `/tasks${query}`, headers: as(user) })).json()
      listed.push(...page.tasks.map((task: { id: string }) => task.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(listed).toHaveLength(100)
    expect(new Set(listed)).toEqual(createdIds)
  })

  it('answers 404 {error} for an unknown route', async () => {
    const response = await suite.app.inject({ url: '/nowhere', headers: as(user) })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'Route GET /nowhere not found' })
  })

  describe('when the tasks table fails', () => {
    const broken = useTasksApp(database)
    // A well-formed id, so the request reaches the table (any other id answers 404 without a read).
    const someId = '00000000-0000-4000-8000-000000000000'
    beforeAll(async () => {
      await sql`drop table tasks`.execute(broken.db)
    })

    it.each([
      ['GET', '/tasks', 'Failed to list tasks'],
      ['GET', `/tasks/${someId}`, 'Failed to get task'],
      ['POST', '/tasks', 'Failed to create task'],
      ['PUT', `/tasks/${someId}`, 'Failed to update task'],
      ['DELETE', `/tasks/${someId}`, 'Failed to delete task']
    ] as const)('%s %s answers 500 with the spec message and no details', async (method, url, error) => {
      const response = await broken.app.inject({ method, url, headers: as('u'), payload: method === 'POST' || method === 'PUT' ? { title: 'x' } : undefined })
      expect(response.statusCode).toBe(500)
      expect(response.json()).toEqual({ error })
    })
  })
})
