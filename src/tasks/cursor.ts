import { badRequest } from '../shared/errors.js'
import { isTaskId } from './rules.js'

/** Position of the last task of a page: the list is ordered by (createdAt, id), newest first. */
export interface ListPosition {
  createdAt: string
  id: string
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Opaque to clients; base64url JSON so a server change of shape stays a server matter. */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url')
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 2) {
      const [createdAt, id] = value as unknown[]
      if (typeof createdAt === 'string' && ISO_TIMESTAMP.test(createdAt) && typeof id === 'string' && isTaskId(id)) {
        return { createdAt, id }
      }
    }
  } catch {
    // Falls through to the same answer as any other malformed cursor.
  }
  throw badRequest('Cursor is invalid')
}
