import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasesUnderTest, type TestDatabase } from '../helpers/databases.js'
import { buildTestTasksApp } from '../helpers/tasks-app.js'

describe.each(databasesUnderTest())('smoke on $name', (database) => {
  let handle: TestDatabase
  beforeAll(async () => {
    handle = await database.open()
  })
  afterAll(async () => {
    await handle.destroy()
  })
  it('creates and reads', async () => {
    const app = await buildTestTasksApp(handle.db)
    const created = await app.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': 'u' }, payload: { title: 't' } })
    expect(created.statusCode).toBe(201)
    const read = await app.inject({ url: `/tasks/${created.json().id}`, headers: { 'x-user-id': 'u' } })
    expect(read.json().title).toBe('t')
    await app.close()
  })
})
