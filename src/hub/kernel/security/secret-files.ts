import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Every secret a service keeps in DATA_DIR, named here and nowhere else: `npm run hub -- backup`
 * copies exactly these, so a secret file written under a name missing here would be lost by a
 * restore (test/cli/backup.test.ts starts the services on a fresh DATA_DIR and checks).
 */
export const DATA_DIR_SECRETS = {
  hubCookies: 'hub-cookie-secret',
  tasksCookies: 'tasks-cookie-secret',
  signingKeys: 'hub-signing-keys.json',
  encryptionKey: 'hub-encryption-key'
} as const

export type DataDirSecret = (typeof DATA_DIR_SECRETS)[keyof typeof DATA_DIR_SECRETS]

export const DATA_DIR_SECRET_FILES: readonly DataDirSecret[] = Object.values(DATA_DIR_SECRETS)

/**
 * Writes a secret readable by the owner only (0600), complete or not at all: it is written to a
 * temporary file beside `file` and only then put in place, so a reader never sees half of it.
 * `exclusive` refuses to replace an existing file (EEXIST), so two instances starting together
 * keep the first one's secret; otherwise the new secret replaces the old (key rotation).
 */
export function writeSecretFile(file: string, content: string | Uint8Array, { exclusive }: { exclusive: boolean }): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const temporary = temporaryPathBeside(file)
  try {
    fs.writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' })
    // A hard link never replaces an existing file, unlike a rename.
    if (exclusive) fs.linkSync(temporary, file)
    else fs.renameSync(temporary, file)
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}

/** The secret in `file`, creating it with `initialContent` on first use. */
export function readOrCreateSecretFile(file: string, initialContent: string): string {
  try {
    writeSecretFile(file, initialContent, { exclusive: true })
  } catch (error) {
    // Another process created it first: theirs is the secret.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return fs.readFileSync(file, 'utf8')
}

/** In the same directory, so that linking or renaming it into place stays on one file system. */
function temporaryPathBeside(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
}
