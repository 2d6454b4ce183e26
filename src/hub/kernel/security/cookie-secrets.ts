import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { DATA_DIR_SECRETS, type DataDirSecret, readOrCreateSecretFile } from './secret-files.js'

export const COOKIE_SECRET_FILE = DATA_DIR_SECRETS.hubCookies

/** The task manager's pages keep a key of their own, so that neither service can forge the other's cookies. */
export const TASKS_COOKIE_SECRET_FILE = DATA_DIR_SECRETS.tasksCookies

/**
 * The HMAC keys of a service's cookies: the configured ones when set (HUB_COOKIE_SECRET: the first
 * signs, all verify), else one random key generated into DATA_DIR at first start, in `fileName`.
 */
export function loadCookieSecrets(configured: string[] | undefined, dataDir: string, fileName: DataDirSecret = COOKIE_SECRET_FILE): string[] {
  if (configured) return configured
  const secret = readOrCreateSecretFile(path.join(dataDir, fileName), randomBytes(32).toString('base64url'))
  return [secret.trim()]
}
