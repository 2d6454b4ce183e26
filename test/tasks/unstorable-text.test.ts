import { describe, expect, it } from 'vitest'
import { encodeCursor } from '../../src/tasks/cursor.js'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

/** PostgreSQL's text cannot hold U+0000: each of these used to reach it and answer 500. */
describe.each(databasesUnderTest())('text a database cannot hold, on $name', (database) => {
  const suite = useTasksApp(database)
  const headers = { 'x-user-id': 'careful' }
  const create = async () => (await suite.app.inject({ method: 'POST', url: '/tasks', headers, payload: { title: 'clean' } })).json()

  const refused = [
    ['U+0000', 'a\u0000b'],
    ['another control character', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['an unpaired high surrogate', 'a\ud800b'],
    ['an unpaired low surrogate', '\udc00']
  ]

  it.each(refused)('POST refuses a title or description holding %s with 400 naming the field', async (_case, text) => {
    for (const [payload, field] of [
      [{ title: text }, 'Title'],
      [{ title: 'ok', description: text }, 'Description']
    ] as const) {
      const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers, payload })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: `${field} must not contain control characters or unpaired surrogates` })
    }
  })

  it.each(refused)('PUT refuses a title or description holding %s with 400 naming the field, changing nothing', async (_case, text) => {
    const task = await create()
    for (const [payload, field] of [
      [{ title: text }, 'Title'],
      [{ description: text }, 'Description']
    ] as const) {
      const response = await suite.app.inject({ method: 'PUT', url: `/tasks/${task.id}`, headers, payload })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: `${field} must not contain control characters or unpaired surrogates` })
    }
    expect((await suite.app.inject({ url: `/tasks/${task.id}`, headers })).json()).toEqual(task)
  })

  it('keeps tabs, line breaks and text beyond the BMP', async () => {
    const text = 'line one\r\n\tline two 🌱 𝄞 ✓'
    const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers, payload: { title: text, description: text } })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({ title: text, description: text })
  })

  it.each(['GET', 'PUT', 'DELETE'] as const)('%s of a path id that cannot be a task id answers 404 "Task not found"', async (method) => {
    for (const id of ['%00', 'a%00b', '%07', 'not-a-uuid', `${crypto.randomUUID()}%00`]) {
      const response = await suite.app.inject({ method, url: `/tasks/${id}`, headers, ...(method === 'PUT' ? { payload: { title: 'x' } } : {}) })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ error: 'Task not found' })
    }
  })

  it('refuses a cursor whose id holds U+0000 or is no task id with 400', async () => {
    for (const id of ['\u0000', `${crypto.randomUUID()}\u0000`, 'not-a-uuid']) {
      const cursor = encodeCursor({ createdAt: '2026-01-01T00:00:00.000Z', id })
      const response = await suite.app.inject({ url: `/tasks?cursor=${cursor}`, headers })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ error: 'Cursor is invalid' })
    }
  })
})
