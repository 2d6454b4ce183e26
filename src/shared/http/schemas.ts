import { Type } from 'typebox'

export const ErrorResponse = Type.Object(
  { error: Type.String({ description: 'Human-readable message' }) },
  { $id: 'ErrorResponse', description: 'Body of every error response' }
)
