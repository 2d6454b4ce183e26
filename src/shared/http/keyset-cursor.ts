import { badRequest } from '../errors.js'

/** Where a page of a list ordered by (createdAt, id) ended: the next page starts past it. */
export interface KeysetPosition {
  createdAt: string
  id: string
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** Opaque to clients; base64url JSON so a server change of shape stays a server matter. */
export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url')
}

/** The position a cursor names, its id checked by the list's own rule; anything else is a 400. */
export function decodeKeysetCursor(cursor: string, isId: (id: string) => boolean): KeysetPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 2) {
      const [createdAt, id] = value as unknown[]
      if (typeof createdAt === 'string' && ISO_TIMESTAMP.test(createdAt) && typeof id === 'string' && isId(id)) {
        return { createdAt, id }
      }
    }
  } catch {
    // Falls through to the same answer as any other malformed cursor.
  }
  throw badRequest('Cursor is invalid')
}
