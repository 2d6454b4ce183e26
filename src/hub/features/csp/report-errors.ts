import type { FastifySchemaValidationError, SchemaErrorDataVar } from 'fastify/types/schema.js'
import { formatSchemaErrors } from '../../../shared/http/validation.js'

export const NOT_A_CSP_REPORT = 'Body must be a CSP report: {"csp-report": {...}} or an array of Reporting API reports'

/**
 * The body may take either of two shapes, and the validator reports why it fails both. Only the
 * shape the client sent is worth explaining: an array is not told it lacks "csp-report". Dropped:
 * errors saying the body as a whole has the other shape's type, the union's own summary, and why
 * each report of a batch is not a csp-violation (the batch's `contains` error says it once).
 */
export function formatReportBodyErrors(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  const aboutTheShapeSent = errors.filter(
    (error) =>
      !(error.instancePath === '' && ['type', 'anyOf'].includes(error.keyword)) && !error.schemaPath.includes('/contains/')
  )
  if (aboutTheShapeSent.length === 0) return Object.assign(new Error(NOT_A_CSP_REPORT), { statusCode: 400 })
  return formatSchemaErrors(aboutTheShapeSent, dataVar)
}
