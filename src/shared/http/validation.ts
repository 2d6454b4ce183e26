import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler, FastifySchema } from 'fastify'
import type { FastifySchemaValidationError, SchemaErrorDataVar } from 'fastify/types/schema.js'

/**
 * Two compilers: query strings, params and headers arrive as text and are coerced to the declared
 * types; JSON bodies are checked as sent, so `{"title": 5}` is a wrong type, not the title "5".
 */
function createAjv(coerceTypes: boolean): Ajv {
  // An unknown field in a body is an error to report, never something to drop silently.
  const removeAdditional = coerceTypes
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false })
  addFormats.default(ajv)
  // A string with at least one non-space character.
  ajv.addFormat('non-blank', /\S/)
  return ajv
}

const bodyAjv = createAjv(false)
const textAjv = createAjv(true)

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object)

const PART_NAMES: Record<string, string> = { body: 'Body', querystring: 'Query', params: 'Path', headers: 'Headers' }

/** Turns the first schema violation into one sentence that names the field, e.g. "Title is required". */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  const error = errors[0] as ErrorObject | undefined
  const message = error ? describe(error, dataVar) : `${PART_NAMES[dataVar] ?? 'Request'} is invalid`
  return Object.assign(new Error(message), { statusCode: 400 })
}

function describe(error: ErrorObject, dataVar: string): string {
  const field = fieldName(error, dataVar)
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return `${field} is required`
    case 'format':
      return params.format === 'non-blank' ? `${field} is required` : `${field} must be a valid ${String(params.format)}`
    case 'type':
      return `${field} must be ${article(String(params.type))}`
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} characters`
    case 'minLength':
      return `${field} must be at least ${String(params.limit)} characters`
    case 'enum':
      // An allowed empty string means "leave unchanged"; it is no choice worth listing.
      return `${field} must be one of: ${(params.allowedValues as unknown[]).filter((value) => value !== '').join(', ')}`
    case 'minimum':
    case 'maximum':
      return `${field} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`
    case 'const':
      return `${field} must be ${JSON.stringify(params.allowedValue)}`
    case 'additionalProperties':
      return `${field} has an unknown field: ${String(params.additionalProperty)}`
    default:
      return `${field} ${error.message ?? 'is invalid'}`
  }
}

function fieldName(error: ErrorObject, dataVar: string): string {
  const missing = error.keyword === 'required' ? String((error.params as { missingProperty: string }).missingProperty) : ''
  const segments = [...error.instancePath.split('/').filter(Boolean), ...(missing ? [missing] : [])]
  const name = segments.join('.')
  if (name === '') return PART_NAMES[dataVar] ?? 'Request'
  return name.charAt(0).toUpperCase() + name.slice(1)
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}
