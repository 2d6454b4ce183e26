import type { Task } from './rules.js'
import type { TasksRepository } from './repository.js'

/** Rows per INSERT at most: 700 parameters, far below either database's limit. */
const MAX_BATCH = 100

interface PendingInsert {
  task: Task
  resolve: (task: Task) => void
  reject: (error: unknown) => void
}

/**
 * Creates that arrive in the same turn of the event loop are stored by one multi-row INSERT:
 * one commit instead of one each, which on SQLite is most of a create's cost. Every create is
 * still answered only once its row is committed. If the shared INSERT fails, each task is then
 * inserted alone, so a failure answers only the create it belongs to.
 */
export function batchingInserts(tasks: TasksRepository): TasksRepository {
  let pending: PendingInsert[] = []

  async function flush(batch: PendingInsert[]) {
    try {
      await tasks.insertAll(batch.map(({ task }) => task))
      for (const { task, resolve } of batch) resolve(task)
    } catch {
      // In arrival order, so of two creates that clash the first one is kept.
      for (const { task, resolve, reject } of batch) await tasks.insert(task).then(resolve, reject)
    }
  }

  function flushPending() {
    if (pending.length === 0) return
    const batch = pending
    pending = []
    void flush(batch)
  }

  return {
    ...tasks,
    insert(task: Task): Promise<Task> {
      return new Promise((resolve, reject) => {
        // Requests read in this turn queue up behind the first; the check phase comes after them.
        if (pending.length === 0) setImmediate(flushPending)
        pending.push({ task, resolve, reject })
        if (pending.length === MAX_BATCH) flushPending()
      })
    }
  }
}
