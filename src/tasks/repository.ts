import type { Kysely } from 'kysely'
import type { Database } from '../shared/database/schema.js'
import type { ListPosition } from './cursor.js'
import { type Task, type TaskChanges, nextUpdatedAt } from './rules.js'
import type { TaskStatus } from './schemas.js'

export interface ListOptions {
  limit: number
  after?: ListPosition | undefined
  status?: TaskStatus | undefined
}

/** One page of a user's list; `hasMore` says whether another page follows. */
export interface TaskPage {
  tasks: Task[]
  hasMore: boolean
}

export type TasksRepository = ReturnType<typeof createTasksRepository>

/** Every read and write is scoped to the assignee: another user's task is simply not there. */
export function createTasksRepository(db: Kysely<Database>) {
  const ownedBy = (userId: string) => db.selectFrom('tasks').selectAll().where('assignee', '=', userId)

  return {
    /** The row holds exactly the task's values, so the task itself is the answer: no read-back. */
    async insert(task: Task): Promise<Task> {
      await db.insertInto('tasks').values(task).execute()
      return task
    },

    /** One statement, so all of them are stored or none is. */
    async insertAll(tasks: Task[]): Promise<void> {
      await db.insertInto('tasks').values(tasks).execute()
    },

    async findOwned(id: string, userId: string): Promise<Task | undefined> {
      return (await ownedBy(userId).where('id', '=', id).executeTakeFirst()) as Task | undefined
    },

    /** Newest first; reads one row past the page to know whether another page follows. */
    async listOwned(userId: string, options: ListOptions): Promise<TaskPage> {
      let query = ownedBy(userId)
      if (options.status) query = query.where('status', '=', options.status)
      const after = options.after
      if (after) {
        query = query.where((eb) => eb(eb.refTuple('createdAt', 'id'), '<', eb.tuple(after.createdAt, after.id)))
      }
      const rows = (await query
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(options.limit + 1)
        .execute()) as Task[]
      return { tasks: rows.slice(0, options.limit), hasMore: rows.length > options.limit }
    },

    /**
     * One transaction whose first statement writes the row, so a concurrent PUT of the same task
     * waits for it (PostgreSQL's row lock, SQLite's single writer) and then reads the updatedAt it
     * left: every PUT moves updatedAt past the one before, even within one millisecond.
     */
    async updateOwned(id: string, userId: string, changes: TaskChanges, now: Date): Promise<Task | undefined> {
      return db.transaction().execute(async (trx) => {
        const owned = trx.updateTable('tasks').where('id', '=', id).where('assignee', '=', userId)
        const current = await owned
          .set((eb) => ({ ...changes, updatedAt: eb.ref('updatedAt') }))
          .returning('updatedAt')
          .executeTakeFirst()
        if (!current) return undefined
        return (await owned
          .set({ updatedAt: nextUpdatedAt(current.updatedAt, now) })
          .returningAll()
          .executeTakeFirstOrThrow()) as Task
      })
    },

    /** Every task of the user (their account was purged); `executor`: the transaction that records the event. */
    async deleteAllOwnedBy(userId: string, executor: Kysely<Database> = db): Promise<void> {
      await executor.deleteFrom('tasks').where('assignee', '=', userId).execute()
    },

    async deleteOwned(id: string, userId: string): Promise<boolean> {
      const result = await db.deleteFrom('tasks').where('id', '=', id).where('assignee', '=', userId).executeTakeFirst()
      return result.numDeletedRows > 0n
    }
  }
}
