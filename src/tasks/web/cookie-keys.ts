import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { readOrCreateSecretFile } from '../../hub/security/secret-files.js'

export const TASKS_COOKIE_SECRET_FILE = 'tasks-cookie-secret'

/**
 * The pages' cookie key: generated into DATA_DIR at first start, kept apart from the hub's so that
 * neither service can forge the other's cookies.
 */
export function tasksCookieKeys(dataDir: string): string[] {
  return [readOrCreateSecretFile(path.join(dataDir, TASKS_COOKIE_SECRET_FILE), randomBytes(32).toString('base64url')).trim()]
}
