import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SERVER = path.join(ROOT, 'dist/server')

/**
 * The packages in the server bundle (`pretest` builds it) that name `__dirname` or `__filename`,
 * each reviewed: in the bundle both name the bundle's file (dist/server/build-…/hub.cjs), not the
 * package's, and a package that finds its own files through them would fail only on the code path
 * that does (docs/performance.md, "Issue 32: the server as one bundle"). A package that joins
 * this list is to be looked at, and either given its own folder back (scripts/build.mjs,
 * FINDING_THEIR_FILES), kept out of the bundle (SERVER_EXTERNAL) or added here with why it is
 * harmless.
 */
const REVIEWED = {
  'dist/src/shared/checkout.js': "our own: its import.meta.dirname, which the build turns into __dirname, is only where it starts walking up to the checkout's package.json",
  ioredis: "reads its version for Redis's CLIENT SETINFO in a try (the bundle sends error-fetching-version); the friendly error stack is an option Hearth leaves off",
  '@fastify/swagger': "reads its own package.json in a try, for the document's default info, which Hearth gives (shared/http/openapi.ts)",
  pino: 'only to find its transport worker: Hearth logs to stdout, with no transport',
  'thread-stream': "pino's transport worker, likewise"
}

/** The package of the module esbuild's path comment (`// node_modules/pino/lib/transport.js`) names. */
const packageOf = (modulePath: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(modulePath)?.[1] ?? modulePath

describe('the server bundle', () => {
  it('holds no package that finds its files by __dirname or __filename but those reviewed', () => {
    const found = new Set<string>()
    // The files of this build (the folder keeps the build before's too: scripts/build.mjs).
    const { outputs } = JSON.parse(fs.readFileSync(path.join(SERVER, 'meta.json'), 'utf8')) as { outputs: Record<string, unknown> }
    for (const file of Object.keys(outputs).filter((name) => /\.c?js$/.test(name))) {
      let module = ''
      for (const line of fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
        module = /^\/\/ (\S+\.[cm]?js)$/.exec(line)?.[1] ?? module
        if (/\b__(dirname|filename)\b/.test(line)) found.add(packageOf(module))
      }
    }
    expect([...found].sort()).toEqual(Object.keys(REVIEWED).sort())
  })
})
