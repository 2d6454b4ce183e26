import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import { HttpError, badRequest } from '../../../shared/errors.js'
import { ErrorResponse } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { violationsFrom } from './parse.js'
import { formatReportBodyErrors } from './report-errors.js'
import type { CspReportRepository } from './repository.js'
import { CSP_REPORT_BODY_LIMIT_BYTES, CspReportBody } from './schemas.js'
import { groupByFingerprint } from './violation.js'

export const DEFAULT_MAX_REPORTS_PER_MINUTE = 60
/** Where the shared rate-limit counters live in Redis: `hearth:csp:<client ip>`. */
export const RATE_LIMIT_REDIS_PREFIX = 'hearth:csp:'

const CSP_REPORT_CONTENT_TYPES = ['application/csp-report', 'application/reports+json', 'application/json'] as const

export interface CspReportRoutesOptions {
  reports: CspReportRepository
  /** Reports accepted from one client IP per minute; more answer 429 with Retry-After. */
  maxReportsPerMinute?: number
  /** Keeps the rate-limit counters in Redis, so every instance of the hub shares one limit per IP. */
  redis?: Redis
}

/**
 * `POST /api/csp-report`, where browsers send CSP violation reports. Registered as its own
 * encapsulated plugin: its content types, its rate limit and its body limit apply to it alone.
 * Browsers send no cookie or CSRF token here, so the hub exempts this path from those checks.
 */
export async function cspReportRoutes(app: App, options: CspReportRoutesOptions) {
  await app.register(rateLimit, {
    max: options.maxReportsPerMinute ?? DEFAULT_MAX_REPORTS_PER_MINUTE,
    timeWindow: 60_000,
    ...(options.redis ? { redis: options.redis, nameSpace: RATE_LIMIT_REDIS_PREFIX } : {}),
    // Reports are best effort: an unreachable Redis lets them through rather than failing each one.
    skipOnError: true,
    // Thrown as an HttpError so the app's error handler answers `{error}` and keeps the 429.
    errorResponseBuilder: (_request, context) =>
      new HttpError(context.statusCode, `Too many CSP reports, retry in ${context.after}`)
  })

  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json'],
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error')
  )
  // Issue 4 answers 400, not 415, for a body that is not JSON, whatever its declared type.
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(badRequest(`Content-Type must be one of: ${CSP_REPORT_CONTENT_TYPES.join(', ')}`))
  })

  app.post(
    '/api/csp-report',
    {
      config: { csrf: false },
      bodyLimit: CSP_REPORT_BODY_LIMIT_BYTES,
      schemaErrorFormatter: formatReportBodyErrors,
      schema: {
        summary: 'Receive CSP violation reports (CSP 2 report-uri or Reporting API report-to)',
        tags: ['csp'],
        consumes: [...CSP_REPORT_CONTENT_TYPES],
        body: CspReportBody,
        response: {
          204: { type: 'null', description: 'Received' },
          400: ErrorResponse,
          413: ErrorResponse,
          429: ErrorResponse,
          500: ErrorResponse
        }
      }
    },
    async (request, reply) => {
      const violations = violationsFrom(request.body, request.headers['user-agent'])
      await options.reports.record(groupByFingerprint(violations), new Date())
      return reply.code(204).send(null)
    }
  )
}
