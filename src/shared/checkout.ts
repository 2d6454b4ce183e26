import fs from 'node:fs'
import path from 'node:path'

/**
 * The root of this Hearth checkout: the nearest folder above this module with a package.json.
 * Found rather than counted, because this module runs from three depths: src/shared under the test
 * runner, dist/src/shared (the CLI), and dist/server/build-…, where the server bundle puts it into
 * each service's file. Neither dist/ nor src/ holds a package.json.
 */
export function checkoutRoot(): string {
  for (let directory = import.meta.dirname; ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory
    if (path.dirname(directory) === directory) throw new Error(`No package.json above ${import.meta.dirname}: is this a Hearth checkout?`)
  }
}
