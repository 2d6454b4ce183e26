import { beforeEach, describe, expect, it } from 'vitest'
import { databasesUnderTest } from '../helpers/databases.js'
import { useTasksApp } from '../helpers/tasks-app.js'

/** UUIDs are case-insensitive (RFC 9562): a task's id in any case names that task, and only for its owner. */
describe.each(databasesUnderTest())('task ids in any case on $name', (database) => {
  const suite = useTasksApp(database)
  let userCount = 0
  let user: string
  let task: { id: string; title: string }

  beforeEach(async () => {
    user = `id-case-user-${++userCount}`
    const response = await suite.app.inject({ method: 'POST', url: '/tasks', headers: as(user), payload: { title: 'Water the plants' } })
    expect(response.statusCode).toBe(201)
    task = response.json()
  })

  const as = (id: string) => ({ 'x-user-id': id })
  const mixedCase = (id: string) => [...id].map((character, index) => (index % 2 ? character.toUpperCase() : character)).join('')
  const spellings = [
    ['upper case', (id: string) => id.toUpperCase()],
    ['mixed case', mixedCase]
  ] as const

  it.each(spellings)('GET by the id in %s finds the task, answered with the stored id', async (_case, spell) => {
    const response = await suite.app.inject({ url: `/tasks/${spell(task.id)}`, headers: as(user) })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(task)
  })

  it.each(spellings)('PUT by the id in %s updates the task', async (_case, spell) => {
    const response = await suite.app.inject({ method: 'PUT', url: `/tasks/${spell(task.id)}`, headers: as(user), payload: { status: 'completed' } })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ id: task.id, status: 'completed' })
    const stored = await suite.app.inject({ url: `/tasks/${task.id}`, headers: as(user) })
    expect(stored.json().status).toBe('completed')
  })

  it.each(spellings)('DELETE by the id in %s deletes the task', async (_case, spell) => {
    const response = await suite.app.inject({ method: 'DELETE', url: `/tasks/${spell(task.id)}`, headers: as(user) })
    expect(response.statusCode).toBe(204)
    expect((await suite.app.inject({ url: `/tasks/${task.id}`, headers: as(user) })).statusCode).toBe(404)
  })

  it.each(['GET', 'PUT', 'DELETE'] as const)('%s by the id in upper case is still 404 for another user', async (method) => {
    const response = await suite.app.inject({
      method,
      url: `/tasks/${task.id.toUpperCase()}`,
      headers: as(`${user}-other`),
      ...(method === 'PUT' ? { payload: { title: 'Mine now' } } : {})
    })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'Task not found' })
  })
})
