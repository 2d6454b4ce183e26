import fs from 'node:fs'
import path from 'node:path'

/**
 * This build's Hearth version, from the package.json of its checkout, whether this module runs
 * from the build (dist/src/shared) or from source under the test runner (src/shared). Read once:
 * the database records which version migrated it (see `migrate.ts`).
 */
export const HEARTH_VERSION: string = readVersion()

function readVersion(): string {
  const above = path.resolve(import.meta.dirname, '../..')
  const root = path.basename(above) === 'dist' ? path.dirname(above) : above
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown }
  if (typeof version !== 'string') throw new Error(`${path.join(root, 'package.json')} names no version`)
  return version
}
