import { Type } from 'typebox'
import type { App } from '../../shared/http/server.js'
import { CSP_REPORT_PATH } from '../plugins/security-headers.js'

/** Reports are small; a larger body is not a report. */
const CSP_REPORT_BODY_LIMIT = 64 * 1024
/** What browsers send: the CSP Level 2 format and the Reporting API's. */
const REPORT_CONTENT_TYPES = ['application/csp-report', 'application/reports+json']
/** Enough of a report to see what was blocked, without letting a client fill the log. */
const LOGGED_REPORT_MAX_LENGTH = 4096

/** Receives CSP violation reports and writes them to the log. */
export async function cspReportRoutes(app: App) {
  app.addContentTypeParser(REPORT_CONTENT_TYPES, { parseAs: 'string', bodyLimit: CSP_REPORT_BODY_LIMIT }, app.getDefaultJsonParser('error', 'error'))
  app.post(
    CSP_REPORT_PATH,
    {
      bodyLimit: CSP_REPORT_BODY_LIMIT,
      schema: {
        summary: 'Receive a CSP violation report',
        tags: ['security'],
        body: Type.Unknown(),
        response: { 204: { type: 'null', description: 'Report received' } }
      }
    },
    async (request, reply) => {
      request.log.warn({ cspReport: JSON.stringify(request.body).slice(0, LOGGED_REPORT_MAX_LENGTH) }, 'CSP violation reported')
      return reply.code(204).send(null)
    }
  )
}
