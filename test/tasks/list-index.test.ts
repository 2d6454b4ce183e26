import { CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { ListOptions } from '../../src/tasks/repository.js'
import { createTasksRepository } from '../../src/tasks/repository.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

const PLANS_RULED_OUT = ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']
const AFTER = { createdAt: '2026-01-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' }

/** The list query's plan, on the very SQL the repository sends. */
describe.each(databasesUnderTest())('the list query on $name', (database) => {
  const handle = useDatabase(database)

  /** Runs listOwned once, keeping the query it sends instead of guessing its SQL. */
  async function listQuery(options: ListOptions): Promise<CompiledQuery> {
    const nodes: RootOperationNode[] = []
    const capture: KyselyPlugin = {
      transformQuery: ({ node }) => {
        nodes.push(node)
        return node
      },
      transformResult: async ({ result }) => result
    }
    const { db } = handle.current
    await createTasksRepository(db.withPlugin(capture)).listOwned('planner', options)
    expect(nodes).toHaveLength(1)
    return db.getExecutor().compileQuery(nodes[0]!, { queryId: 'list-plan' })
  }

  async function plan(query: CompiledQuery): Promise<string> {
    const { db, dialect } = handle.current
    if (dialect === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))
      return rows.rows.map((row) => row.detail).join('\n')
    }
    // A tiny test table is best read whole and sorted, whatever the indexes. Ruling out those plans
    // asks the question that matters: can an index serve the filter and the order by itself?
    return db.connection().execute(async (connection) => {
      for (const setting of PLANS_RULED_OUT) await sql`set ${sql.raw(setting)} = off`.execute(connection)
      try {
        const rows = await connection.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]))
        return rows.rows.map((row) => row['QUERY PLAN']).join('\n')
      } finally {
        for (const setting of PLANS_RULED_OUT) await sql`reset ${sql.raw(setting)}`.execute(connection)
      }
    })
  }

  it.each([
    ['the first page', { limit: 50 }, 'tasks_assignee_created'],
    ['a later page', { limit: 50, after: AFTER }, 'tasks_assignee_created'],
    ['the first page of one status', { limit: 50, status: 'pending' }, 'tasks_assignee_status_created'],
    ['a later page of one status', { limit: 50, status: 'completed', after: AFTER }, 'tasks_assignee_status_created']
  ] as const)('reads %s through an index, with no sort step', async (_case, options, index) => {
    const text = await plan(await listQuery(options))
    expect(text, text).toContain(index)
    expect(text).not.toMatch(/TEMP B-TREE|Sort|Seq Scan|SCAN tasks\b(?! USING)/)
  })
})
