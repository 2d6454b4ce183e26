import fs from 'node:fs'
import path from 'node:path'
import { checkoutRoot } from './checkout.js'

/**
 * This build's Hearth version, from the package.json of its checkout, wherever this module runs
 * from (the server bundle, dist/src/shared or src/shared under the test runner). Read once:
 * the database records which version migrated it (see `migrate.ts`).
 */
export const HEARTH_VERSION: string = readVersion()

function readVersion(): string {
  const root = checkoutRoot()
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown }
  if (typeof version !== 'string') throw new Error(`${path.join(root, 'package.json')} names no version`)
  return version
}
