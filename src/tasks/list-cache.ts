import { CompiledQuery, type Kysely, SqliteAdapter } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Database } from '../shared/database/schema.js'
import type { ListOptions, TaskPage, TasksRepository } from './repository.js'

/** Room for the cached pages, a few thousand busy users' first pages. */
const MAX_CACHED_BYTES = 32 * 1024 * 1024
/** A task's fields beside its title and description: id, status, assignee, two timestamps. */
const TASK_OVERHEAD_BYTES = 200

/** SQLite's count of commits made by other connections to the database file. */
const OTHER_CONNECTIONS_COMMITS = CompiledQuery.raw('pragma data_version')

/**
 * Keeps each page of a user's list until one of that user's tasks changes, so a client that
 * polls an unchanged list is answered without reading and decoding the rows again.
 *
 * A page is never served stale: this process's writes drop the writer's pages when they finish,
 * a read that overlapped any of them keeps nothing, and before a page is served from memory
 * SQLite's `data_version` tells whether another process wrote to the file; if one did, everything
 * goes.
 * On PostgreSQL the lists are not cached: instances there share the database and nothing as cheap
 * says that another one wrote.
 */
export function cachingListReads(tasks: TasksRepository, db: Kysely<Database>): TasksRepository {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return tasks

  const keysByUser = new Map<string, Set<string>>()
  const pages = new LRUCache<string, { userId: string; page: TaskPage }>({
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: ({ page }) => cachedBytes(page),
    dispose: ({ userId }, key) => {
      const keys = keysByUser.get(userId)
      keys?.delete(key)
      if (keys?.size === 0) keysByUser.delete(userId)
    }
  })
  /** Moves on every drop; a read that began before one may have seen the rows before that write. */
  let generation = 0
  /** Unknown until the first look: the first page served from memory then clears everything. */
  let commitsSeen: number | undefined

  function forgetUser(userId: string) {
    generation++
    for (const key of keysByUser.get(userId) ?? []) pages.delete(key)
  }

  // Through Kysely rather than on the raw handle: it then waits for a transaction in progress on
  // the connection, whose snapshot would hide another process's newer commit.
  async function forgetAllIfOthersWrote() {
    const { rows } = await db.executeQuery<{ dataVersion: number }>(OTHER_CONNECTIONS_COMMITS)
    const commits = rows[0]?.dataVersion
    if (commits === commitsSeen) return
    generation++
    pages.clear()
    commitsSeen = commits
  }

  /** Drops the users' pages once the write is over, whether it succeeded or not. */
  async function writing<T>(userIds: string[], write: Promise<T>): Promise<T> {
    try {
      return await write
    } finally {
      for (const userId of userIds) forgetUser(userId)
    }
  }

  // Every method that writes tasks is wrapped; a new one must be too.
  return {
    ...tasks,
    insert: (task) => writing([task.assignee], tasks.insert(task)),
    insertAll: (all) => writing([...new Set(all.map((task) => task.assignee))], tasks.insertAll(all)),
    updateOwned: (id, userId, changes, now) => writing([userId], tasks.updateOwned(id, userId, changes, now)),
    deleteOwned: (id, userId) => writing([userId], tasks.deleteOwned(id, userId)),
    deleteAllOwnedBy: (userId, executor) => writing([userId], tasks.deleteAllOwnedBy(userId, executor)),

    async listOwned(userId: string, options: ListOptions): Promise<TaskPage> {
      const key = pageKey(userId, options)
      if (pages.has(key)) await forgetAllIfOthersWrote()
      const cached = pages.get(key)
      if (cached) return cached.page
      const readFrom = generation
      const page = freeze(await tasks.listOwned(userId, options))
      if (generation === readFrom) {
        pages.set(key, { userId, page })
        keysByUser.set(userId, (keysByUser.get(userId) ?? new Set()).add(key))
      }
      return page
    }
  }
}

function pageKey(userId: string, { limit, status, after }: ListOptions): string {
  return JSON.stringify([userId, limit, status ?? null, after?.createdAt ?? null, after?.id ?? null])
}

/** The page's text counted twice: once in its tasks, once in the body the route keeps for it. */
function cachedBytes(page: TaskPage): number {
  let bytes = TASK_OVERHEAD_BYTES
  for (const task of page.tasks) bytes += TASK_OVERHEAD_BYTES + 2 * (task.title.length + task.description.length)
  return bytes
}

/** Served to many requests, so none of them may change it. */
function freeze(page: TaskPage): TaskPage {
  for (const task of page.tasks) Object.freeze(task)
  Object.freeze(page.tasks)
  return Object.freeze(page)
}
