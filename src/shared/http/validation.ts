import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
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
  // verbose: the message for a field depends on its schema (see describe), not only on the keyword.
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false, verbose: true })
  addFormats.default(ajv)
  // A string with at least one non-space character.
  ajv.addFormat('non-blank', /\S/)
  ajv.addKeyword({ keyword: PLAIN_TEXT, type: 'string', schemaType: 'boolean', validate: (enabled: boolean, value: string) => !enabled || isPlainText(value) })
  return ajv
}

/** Schema keyword (an OpenAPI `x-` extension) for user text stored as is: see isPlainText. */
export const PLAIN_TEXT = 'x-plain-text'

// C0 controls other than tab, line feed and carriage return; DEL; a surrogate without its pair.
const NOT_PLAIN_TEXT =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * PostgreSQL's text cannot hold U+0000 at all, and an unpaired surrogate would be stored as
 * U+FFFD: either would turn a valid request into a 500 or silently altered data. Other control
 * characters are invisible, so they are refused as well. Tabs and line breaks are text.
 */
function isPlainText(value: string): boolean {
  return !NOT_PLAIN_TEXT.test(value)
}

const bodyAjv = createAjv(false)
const textAjv = createAjv(true)

/**
 * Each schema is compiled on its route's first request rather than at start-up, where compiling
 * every route's schemas was a fifth of the time to the first answer (docs/performance.md, "Issue
 * 32: footprint"); a route never called is never compiled. The same schema, the same Ajv: what
 * is refused does not change, only when the work is done.
 */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  compiledOnFirstUse(() => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object))

/** Fastify reads a refusal's reasons from the function's own `errors`, as Ajv leaves them on its validators. */
function compiledOnFirstUse(compile: () => ValidateFunction): (data: unknown) => boolean {
  let validate: ValidateFunction | undefined
  const validateOnFirstUse = Object.assign(
    (data: unknown) => {
      validate ??= compile()
      const valid = validate(data)
      validateOnFirstUse.errors = validate.errors
      return valid
    },
    { errors: undefined as ValidateFunction['errors'] }
  )
  return validateOnFirstUse
}

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
  // A field that must be non-blank text is missing, whatever else was sent in its place.
  if ((error.parentSchema as { format?: unknown } | undefined)?.format === 'non-blank' && isMissingText(error.keyword)) {
    return `${field} is required`
  }
  switch (error.keyword) {
    case PLAIN_TEXT:
      return `${field} must not contain control characters or unpaired surrogates`
    case 'required':
      return `${field} is required`
    case 'format':
      return `${field} must be a valid ${String(params.format)}`
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

function isMissingText(keyword: string): boolean {
  return keyword === 'type' || keyword === 'format'
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
