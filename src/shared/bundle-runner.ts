import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import vm from 'node:vm'

/**
 * Runs a service's server bundle (dist/server/build-…/hub.cjs, scripts/build.mjs) with V8's code
 * cache: the bytecode of every function the bundle compiled while starting, written beside it at
 * build time (`writeCodeCache`). Node 20 offers a code cache for neither ES modules nor `require`
 * (module.enableCompileCache comes with 22.1), so the bundle is CommonJS compiled here as a
 * vm.Script, which takes one. Parsing and compiling were 40 % of the hub's start-up
 * (docs/performance.md, "Issue 32: start-up from a code cache").
 *
 * V8 takes a cache only from the same V8 version with the same V8 flags; any other is rejected
 * and the bundle compiles as it would without one. The cache's file is named
 * after the bundle's, whose folder is new with every build, so a cache never meets another
 * bundle of the same length (V8 checks only the length of the source).
 */

/** A bundle's CommonJS exports: what each service entry point (src/main.ts, …) exports. */
interface BundleExports {
  /** Resolves once every service of the bundle listens. */
  started: Promise<void>
}

export interface CompiledBundle {
  /** Whether V8 took the cache beside the bundle: `absent` when there is none. */
  codeCache: 'used' | 'rejected' | 'absent'
  /** Runs the bundle's top level (which starts its services) and answers its exports. */
  run(): BundleExports
  /** The bytecode of every function compiled so far, for `writeCodeCache`. */
  createCachedData(): Buffer
}

const codeCacheOf = (bundleFile: string) => `${bundleFile}.v8-cache`

/** The arguments node gives a CommonJS module, named as node names them. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`

export function compileBundle(bundleFile: string): CompiledBundle {
  // The build leaves only ASCII in the bundle, so latin1 reads it as node would read it as UTF-8,
  // into a one-byte string: half the memory of the two-byte one a single other character makes.
  const source = fs.readFileSync(bundleFile, 'latin1')
  const cachedData = readIfPresent(codeCacheOf(bundleFile))
  // No importModuleDynamically: the build turns the bundle's `import()` of a lazily loaded library
  // into a `require` of its file (dist/server/build-…/lazy/), as a script's own import() is
  // experimental in node 20.
  const script = new vm.Script(wrap(source), { filename: bundleFile, cachedData })
  return {
    codeCache: cachedData === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'used',
    run() {
      const module = { exports: {} as BundleExports }
      const moduleFunction = script.runInThisContext() as (...args: unknown[]) => void
      moduleFunction.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile))
      return module.exports
    },
    createCachedData: () => script.createCachedData()
  }
}

/** Starts the bundle's services: what dist/server/hub.js (main.js, tasks.js) does. */
export async function runBundle(bundleFile: string): Promise<void> {
  await compileBundle(bundleFile).run().started
}

/**
 * Starts the bundle's services and, once they listen, writes the code cache of everything
 * compiled to that point: scripts/build.mjs does it once per build, on a database of its own,
 * with the node flags the services run with (package.json's config.nodeFlags). What runs only
 * later (the first sign-in, an administrator's page) stays out: V8 would read it at every start,
 * used or not.
 */
export async function writeCodeCache(bundleFile: string): Promise<void> {
  const bundle = compileBundle(bundleFile)
  await bundle.run().started
  const target = codeCacheOf(bundleFile)
  fs.writeFileSync(`${target}.partial`, bundle.createCachedData())
  fs.renameSync(`${target}.partial`, target)
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
