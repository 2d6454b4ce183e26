import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { createGrantsRepository } from '../../shared/access-grants/repository.js'
import type { Database } from '../../shared/database/schema.js'
import { unauthorized } from '../../shared/errors.js'
import { type ApplicationExport, type ApplicationExportRecord, TASKS_EXPORT_PATH } from '../../shared/export/export-request.js'
import { errorResponses } from '../../shared/http/schemas.js'
import type { App } from '../../shared/http/server.js'
import type { TasksRepository } from '../repository.js'
import { ExportRequestRefused, type ExportRequestVerifier } from '../export/verify-export-request.js'
import { bearerToken } from '../identity.js'
import { firstReceipt } from '../security-events/received-events.js'

const PAGE_SIZE = 500
export const REPLAYED_EXPORT_REQUEST = 'export request was used before'
/**
 * An export request's `jti` is remembered beside the security events' (it names no one, and is
 * kept longer than the request lives), prefixed so that the two kinds of token never share one.
 */
export const EXPORT_JTI_PREFIX = 'export:'

const ExportRecord = Type.Object({
  id: Type.String(),
  recordedAt: Type.Union([Type.String(), Type.Null()]),
  fields: Type.Record(Type.String(), Type.Unknown())
})
const ExportAnswer = Type.Object(
  { datasets: Type.Record(Type.String(), Type.Array(ExportRecord)) },
  { description: "Everything the task manager holds about the token's subject, by dataset" }
)

export interface ExportRoutesOptions {
  db: Kysely<Database>
  /** Not the list cache's wrapper: the export reads every page once, straight from the table. */
  tasks: TasksRepository
  verify: ExportRequestVerifier
  now: () => Date
}

/**
 * GET /export/hearth: the hub, exporting a person's data, asks for what the task manager holds
 * about them (docs/task-manager.md, "Export"). Outside the access check: the caller is the hub,
 * proved by the token's signature; each token is answered once.
 */
export async function exportRoutes(app: App, { db, tasks, verify, now }: ExportRoutesOptions) {
  app.get(
    TASKS_EXPORT_PATH,
    {
      schema: {
        summary: "Answer the hub's export request: the tasks and access grants of the token's subject",
        description:
          'Authorization: Bearer, a hearth-export+jwt token of the hub with the export scope, addressed to this application; each token is answered once.',
        tags: ['export'],
        // Not the access check's credentials: the hub's own export request, proved by its signature.
        security: [],
        response: { 200: ExportAnswer, ...errorResponses(401) }
      }
    },
    async (request, reply) => {
      let userId: string
      try {
        const token = bearerToken(request, true)
        if (!token) throw new ExportRequestRefused('Bearer token is required')
        const verified = await verify(token)
        if (!(await db.transaction().execute((trx) => firstReceipt(trx, EXPORT_JTI_PREFIX + verified.jti, now())))) throw new ExportRequestRefused(REPLAYED_EXPORT_REQUEST)
        userId = verified.userId
      } catch (error) {
        if (!(error instanceof ExportRequestRefused)) throw error
        reply.header('www-authenticate', 'Bearer realm="hearth", error="invalid_token"')
        throw unauthorized(error.message)
      }
      reply.header('cache-control', 'no-store')
      return { datasets: { tasks: await tasksOf(tasks, userId), accessGrants: await grantsOf(db, userId) } } satisfies ApplicationExport
    }
  )
}

async function tasksOf(tasks: TasksRepository, userId: string): Promise<ApplicationExportRecord[]> {
  const records: ApplicationExportRecord[] = []
  let page = await tasks.listOwned(userId, { limit: PAGE_SIZE })
  for (;;) {
    for (const { id, createdAt, assignee: _assignee, ...fields } of page.tasks) records.push({ id, recordedAt: createdAt, fields })
    const last = page.tasks.at(-1)
    if (!page.hasMore || !last) return records
    page = await tasks.listOwned(userId, { limit: PAGE_SIZE, after: { createdAt: last.createdAt, id: last.id } })
  }
}

async function grantsOf(db: Kysely<Database>, userId: string): Promise<ApplicationExportRecord[]> {
  const grants = await createGrantsRepository(db).list({ userId })
  return grants.map(({ id, createdAt, userId: _userId, ...fields }) => ({ id, recordedAt: createdAt, fields }))
}
