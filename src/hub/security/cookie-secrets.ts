import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { readOrCreateSecretFile } from './secret-files.js'

export const COOKIE_SECRET_FILE = 'hub-cookie-secret'

/**
 * The HMAC keys of the auth and CSRF cookies: HUB_COOKIE_SECRET when set (the first signs, all
 * verify), else one random key generated into DATA_DIR at first start.
 */
export function loadCookieSecrets(configured: string[] | undefined, dataDir: string): string[] {
  if (configured) return configured
  const secret = readOrCreateSecretFile(path.join(dataDir, COOKIE_SECRET_FILE), randomBytes(32).toString('base64url'))
  return [secret.trim()]
}
