import { insertInBatches } from '../shared/database/insert-batches.js'
import type { Task } from './rules.js'
import type { TasksRepository } from './repository.js'

/**
 * Creates that arrive in the same turn of the event loop are stored by one multi-row INSERT
 * (`insertInBatches`); every create is still answered only once its row is committed, and a
 * failed row fails only its own create.
 */
export function batchingInserts(tasks: TasksRepository): TasksRepository {
  const insert = insertInBatches<Task>((batch) => tasks.insertAll(batch))
  return {
    ...tasks,
    async insert(task: Task): Promise<Task> {
      await insert(task)
      return task
    }
  }
}
