import { describe, expect, it } from 'vitest'
import { batchingInserts } from '../../src/tasks/insert-batching.js'
import { createTasksRepository } from '../../src/tasks/repository.js'
import { newTask } from '../../src/tasks/rules.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

/** Creates arriving together share one INSERT (see insert-batching.ts); each still stands alone. */
describe.each(databasesUnderTest())('batched inserts on $name', (database) => {
  const handle = useDatabase(database)

  it('stores every task of a batch and answers each create with its own task', async () => {
    const repository = createTasksRepository(handle.current.db)
    const tasks = batchingInserts(repository)
    const created = Array.from({ length: 5 }, (_, i) => newTask({ title: `batch ${i}` }, 'batch-owner', new Date()))
    const answers = await Promise.all(created.map((task) => tasks.insert(task)))
    expect(answers).toEqual(created)
    const stored = await repository.listOwned('batch-owner', { limit: 10 })
    expect(stored.tasks.map((task) => task.id).sort()).toEqual(created.map((task) => task.id).sort())
  })

  it('fails only the create whose row cannot be stored, not the others of its batch', async () => {
    const repository = createTasksRepository(handle.current.db)
    const tasks = batchingInserts(repository)
    const kept = newTask({ title: 'kept' }, 'clash-owner', new Date())
    const alsoKept = newTask({ title: 'also kept' }, 'clash-owner', new Date())
    const clashing = { ...newTask({ title: 'same id' }, 'clash-owner', new Date()), id: kept.id }

    const [first, second, third] = await Promise.allSettled([tasks.insert(kept), tasks.insert(clashing), tasks.insert(alsoKept)])
    expect(first).toEqual({ status: 'fulfilled', value: kept })
    expect(second.status).toBe('rejected')
    expect(third).toEqual({ status: 'fulfilled', value: alsoKept })
    const stored = await repository.listOwned('clash-owner', { limit: 10 })
    expect(stored.tasks.map((task) => task.title).sort()).toEqual(['also kept', 'kept'])
  })
})
