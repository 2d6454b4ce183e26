import { type KeysetPosition, decodeKeysetCursor, encodeKeysetCursor } from '../shared/http/keyset-cursor.js'
import { isTaskId } from './rules.js'

/** Position of the last task of a page: the list is ordered by (createdAt, id), newest first. */
export type ListPosition = KeysetPosition

export const encodeCursor = encodeKeysetCursor

export function decodeCursor(cursor: string): ListPosition {
  return decodeKeysetCursor(cursor, isTaskId)
}
