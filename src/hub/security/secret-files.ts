import fs from 'node:fs'
import path from 'node:path'

/**
 * Writes a secret readable by the owner only (0600). `exclusive` refuses to replace an existing
 * file, so two instances starting together keep the first one's secret.
 */
export function writeSecretFile(file: string, content: string, { exclusive }: { exclusive: boolean }): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  if (exclusive) {
    fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' })
    return
  }
  // Written beside and renamed over, so a reader never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temporary, content, { mode: 0o600 })
  fs.renameSync(temporary, file)
}

/** The secret in `file`, creating it with `initialContent` on first use. */
export function readOrCreateSecretFile(file: string, initialContent: string): string {
  try {
    writeSecretFile(file, initialContent, { exclusive: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return fs.readFileSync(file, 'utf8')
}
