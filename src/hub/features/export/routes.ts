import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import { ErrorResponse } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { requestOrigin } from '../../kernel/audit/context.js'
import type { AuditTrail } from '../../kernel/audit/repository.js'
import type { ApplicationExports } from './application-exports.js'
import type { ExportDataset } from '../../kernel/records/datasets.js'
import { EXPORT_FORMATS, type ExportFormat, csvExport, jsonExport } from './formats.js'

/** Answers whether this user may export now, and if not, in how many seconds. */
export type ExportAllowance = (userId: string) => Promise<{ allowed: boolean; retryAfterSeconds: number }>

export interface ExportRoutesOptions {
  datasets: ExportDataset[]
  audit: AuditTrail
  allowExport: ExportAllowance
  /** What the member applications hold about the person, asked for with each export. */
  applicationExports: ApplicationExports
  userOf: (request: FastifyRequest) => string
}

const ExportOptions = Type.Object({
  formats: Type.Array(Type.Unsafe<ExportFormat>({ type: 'string', enum: [...EXPORT_FORMATS] })),
  datasets: Type.Array(Type.Object({ name: Type.String(), description: Type.String() }))
})

const ExportRequest = Type.Object(
  { format: Type.Unsafe<ExportFormat>({ type: 'string', enum: [...EXPORT_FORMATS] }) },
  { additionalProperties: false }
)

const CONTENT_TYPES: Record<ExportFormat, string> = { json: 'application/json', csv: 'text/csv; charset=utf-8' }
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse }
const tags = ['export']

export async function exportRoutes(app: App, { datasets, audit, allowExport, applicationExports, userOf }: ExportRoutesOptions) {
  // Signed out, a path below that matches no route answers 401 like the routes, not 404.
  app.unknownPaths('/api/export', { session: 'required' })
  app.get(
    '/api/export',
    { config: { session: 'required' }, schema: { summary: 'What an export offers', tags, response: { 200: ExportOptions, ...errors } } },
    async () => ({ formats: [...EXPORT_FORMATS], datasets: datasets.map(({ name, description }) => ({ name, description })) })
  )

  app.post(
    '/api/export',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Download everything the hub and the applications keep about you, as JSON or CSV',
        description:
          'Under applications.<id>, what each application with an export endpoint holds about you, or {status: unavailable, reason} when it did not answer within 5 s.',
        tags,
        body: ExportRequest,
        response: {
          200: {
            description: 'The export, as an attachment',
            // Fastify requires a schema per content type; the body is a stream, so none is applied.
            content: { 'application/json': { schema: {} }, 'text/csv': { schema: { type: 'string' } } }
          },
          ...errors
        }
      }
    },
    async (request, reply) => {
      const userId = userOf(request)
      const { allowed, retryAfterSeconds } = await allowExport(userId)
      if (!allowed) {
        reply.header('retry-after', String(retryAfterSeconds))
        throw new HttpError(429, 'Too many exports; try again later')
      }
      const { format } = request.body
      const exportedAt = new Date().toISOString()
      await audit.record({ userId, type: 'export.created', detail: { format }, ...requestOrigin(request) })
      const write = format === 'json' ? jsonExport : csvExport
      return reply
        .header('content-type', CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="hearth-export-${exportedAt.slice(0, 10)}.${format}"`)
        .header('cache-control', 'no-store')
        .send(await write(datasets, { userId, exportedAt, applications: applicationExports(userId) }))
    }
  )
}
