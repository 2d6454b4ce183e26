import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NODE_FLAGS } from '../helpers/server-process.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const RUNNER = pathToFileURL(path.join(ROOT, 'dist/src/shared/bundle-runner.js')).href

/** This build's file of each service (`pretest` builds them), as its launcher names it. */
const bundleOf = (service: string) => {
  const launcher = fs.readFileSync(path.join(ROOT, `dist/server/${service}.js`), 'utf8')
  const folder = /'(build-[^']+)'/.exec(launcher)?.[1]
  return path.join(ROOT, 'dist/server', folder ?? 'no build folder in the launcher', `${service}.cjs`)
}

/** What V8 made of a bundle's code cache in a node started with `flags`, compiled but not run. */
const codeCacheIn = (bundle: string, flags: string[]) =>
  spawnSync(process.execPath, [...flags, '--input-type=module', '-e', `const { compileBundle } = await import(${JSON.stringify(RUNNER)}); console.log(compileBundle(${JSON.stringify(bundle)}).codeCache)`], {
    encoding: 'utf8'
  }).stdout.trim()

/**
 * The services start from V8's code cache the build wrote (docs/performance.md, "Issue 32:
 * start-up from a code cache"): the start-up target of 500 ms rests on it.
 */
describe('the server bundles and their code caches', () => {
  it.each(['main', 'hub', 'tasks'])('%s.js starts a bundle whose cache V8 takes with the flags the services run with', (service) => {
    expect(codeCacheIn(bundleOf(service), NODE_FLAGS)).toBe('used')
  })

  it('is rejected, and the bundle compiled as without one, under other V8 flags', () => {
    expect(codeCacheIn(bundleOf('hub'), [])).toBe('rejected')
  })

  it('is pure ASCII, so the runner reads it as a one-byte string', () => {
    const bytes = fs.readFileSync(bundleOf('main'))
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1)
  })
})
