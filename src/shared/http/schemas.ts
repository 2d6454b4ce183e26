import { Type } from 'typebox'

export const ErrorResponse = Type.Object(
  { error: Type.String({ description: 'Human-readable message' }) },
  { $id: 'ErrorResponse', description: 'Body of every error response' }
)

export const HealthResponse = Type.Object({ status: Type.Literal('ok') })

/** The error responses a route documents, keyed by status. */
export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<S[number], typeof ErrorResponse>
}

export const ReadyResponse = Type.Object({ status: Type.Literal('ready') })

export const NotReadyResponse = Type.Object(
  {
    error: Type.String({ description: 'What is down' }),
    checks: Type.Record(Type.String(), Type.Union([Type.Literal('up'), Type.Literal('down')]), {
      description: 'Each dependency the service needs, and whether it answered'
    })
  },
  { description: 'A dependency is down: take this instance out of rotation until it answers 200 again' }
)
