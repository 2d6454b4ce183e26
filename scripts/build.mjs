// Builds dist/ when its sources changed since the last build, one build at a time: tsc into
// dist/src (and dist/scripts, dist/bench), the browser bundles into dist/public, then the server
// bundle into dist/server, which is what every way of starting the services runs (see bundleServer).
//
//   node scripts/build.mjs          builds only if src/, scripts/, bench/, package.json,
//                                   package-lock.json or a tsconfig changed (the start scripts,
//                                   `npm run hub`, `npm run grants`, `npm run bench`, `pretest`)
//   node scripts/build.mjs --force  builds whatever the stamp says (`npm run build`)
//
// After a successful build it writes dist/.build-stamp: a hash of every input's path, size and
// modification time (so an edit, a new file and a deleted one all count). A build holds the lock
// directory .build-lock/ (mkdir is atomic) from before it removes the stamp until it has written
// the new one; a caller that finds the lock taken waits for it, then checks the stamp again. So
// two builds never write into dist/ at once, and no caller starts a service while one is under
// way: `npm run start:hub` and `npm run start:tasks` started together build once and both start
// on the finished build. A lock whose process has died, or older than STALE_AFTER_MS, is removed.
//
// Plain JavaScript, as it runs before anything is compiled.

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { setTimeout as sleep } from 'node:timers/promises'
import { servicesNodeFlags } from './node-flags.mjs'

const ROOT = path.resolve(import.meta.dirname, '..')
const DIST = path.join(ROOT, 'dist')
const STAMP = path.join(DIST, '.build-stamp')
const LOCK = path.join(ROOT, '.build-lock')
const OWNER = path.join(LOCK, 'owner.json')
/** What dist/ is built from: these folders' files, and these files at the root. */
const INPUT_DIRECTORIES = ['src', 'scripts', 'bench']
const INPUT_FILES = /^(package\.json|package-lock\.json|tsconfig[^/]*\.json)$/
/** No build takes this long: a lock this old was left by a process that never released it. */
const STALE_AFTER_MS = 10 * 60 * 1000
const POLL_MS = 100
/** The server bundle: each service's compiled entry point, and the file it becomes in a build's folder. */
const SERVER_DIR = path.join(DIST, 'server')
const SERVER_ENTRIES = { main: 'dist/src/main.js', hub: 'dist/src/hub/main.js', tasks: 'dist/src/tasks/main.js' }
/** esbuild's record of which input went into which output, both bundles'; the footprint test reads it. */
const SERVER_METAFILE = path.join(SERVER_DIR, 'meta.json')
/**
 * Packages the bundle requires from node_modules at run time instead of containing them: native
 * addons, whose .node file is found beside their JavaScript.
 */
const SERVER_EXTERNAL = ['better-sqlite3', '@node-rs/argon2']
/**
 * Packages inside the bundle that read their own files through `__dirname` (Swagger UI serves its
 * static files so): in the bundle it names the bundle's folder, so each of their modules gets its
 * own back, found as node would find the package from the bundle.
 */
const FINDING_THEIR_FILES = ['@fastify/swagger-ui']
/** A bare specifier (esbuild's filters are Go's regular expressions, without look-ahead); `node:` ones are left to node. */
const BARE = /^[^./]/
/** What a code cache is written with: the node flags every way of starting the services passes. */
const NODE_FLAGS = servicesNodeFlags(ROOT)
/** A start that has not answered by then is a broken build. */
const CODE_CACHE_TIMEOUT_MS = 60_000

const force = process.argv.includes('--force')
const say = (line) => process.stderr.write(`${line}\n`)

/** A hash of every input's path, size and modification time. */
function fingerprint(root = ROOT) {
  const entries = []
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) {
        const { size, mtimeMs } = fs.statSync(full)
        entries.push(`${path.relative(root, full)}\0${size}\0${mtimeMs}`)
      }
    }
  }
  for (const directory of INPUT_DIRECTORIES) if (fs.existsSync(path.join(root, directory))) walk(path.join(root, directory))
  for (const name of fs.readdirSync(root)) {
    if (INPUT_FILES.test(name)) {
      const { size, mtimeMs } = fs.statSync(path.join(root, name))
      entries.push(`${name}\0${size}\0${mtimeMs}`)
    }
  }
  return createHash('sha256').update(entries.sort().join('\n')).digest('hex')
}

const readStamp = () => {
  try {
    return fs.readFileSync(STAMP, 'utf8').trim()
  } catch {
    return undefined
  }
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Whether the lock in place was left by a process that is gone (or is older than any build). */
function lockIsStale() {
  let owner
  try {
    owner = JSON.parse(fs.readFileSync(OWNER, 'utf8'))
  } catch {
    // Just created, its owner file not written yet; or removed meanwhile. Judge by its age.
    try {
      return Date.now() - fs.statSync(LOCK).mtimeMs > STALE_AFTER_MS
    } catch {
      return false
    }
  }
  if (Date.now() - owner.startedAt > STALE_AFTER_MS) return true
  return owner.host === os.hostname() && !isAlive(owner.pid)
}

/** Takes the lock, waiting while another build holds it. */
async function acquireLock() {
  let said = false
  for (;;) {
    try {
      fs.mkdirSync(LOCK)
      fs.writeFileSync(OWNER, JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: Date.now() }))
      return
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
    }
    if (lockIsStale()) {
      say(`Removing the stale build lock ${path.relative(ROOT, LOCK)}/ (its build is no longer running).`)
      fs.rmSync(LOCK, { recursive: true, force: true })
      continue
    }
    if (!said) {
      say('Waiting for the build under way to finish...')
      said = true
    }
    await sleep(POLL_MS)
  }
}

const releaseLock = () => fs.rmSync(LOCK, { recursive: true, force: true })

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`${path.basename(args[0] ?? command)} failed${result.signal ? ` (${result.signal})` : ` with exit code ${result.status}`}`)
}

/**
 * The three service entry points, each with everything it imports from node_modules, as one
 * CommonJS file that src/shared/bundle-runner.ts compiles with V8's code cache (docs/performance.md,
 * "Issue 32: the server as one bundle" and "start-up from a code cache"). The libraries our code
 * loads with `import()` where it first needs them (oidc-provider, pg, ioredis, stripe, nodemailer,
 * ...) are files of their own under lazy/, required with that first use. Each build goes into a
 * folder of its own; dist/server/main.js, hub.js and tasks.js, which start its bundles, are
 * written once the code caches are. Names are kept and whitespace too, so stack traces in
 * the log stay readable (minifying measured 3-5 MB less idle memory and no faster start); the
 * source maps lead back to src/ through tsc's own maps.
 */
async function bundleServer() {
  const { build } = await import('esbuild')
  const previous = new Set(outputsOf(SERVER_METAFILE).map((file) => path.relative(SERVER_DIR, file).split(path.sep)[0]))
  const folder = path.join(SERVER_DIR, `build-${Date.now().toString(36)}`)
  const lazyFileOf = (library) => `lazy/${library.replace(/^@/, '').replaceAll('/', '-')}.cjs`
  const libraries = new Set()
  const external = [...SERVER_EXTERNAL, ...FINDING_THEIR_FILES.map((name) => `${name}/package.json`)]
  const common = { absWorkingDir: ROOT, bundle: true, platform: 'node', target: 'node20', external, sourcemap: 'linked', metafile: true, logLevel: 'warning' }
  const services = await build({
    ...common,
    entryPoints: SERVER_ENTRIES,
    outdir: folder,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // The bundle's `import()` of a lazily loaded library becomes a `require` of its file at that
    // moment: a vm.Script's own import() is experimental in node 20 (src/shared/bundle-runner.ts).
    supported: { 'dynamic-import': false },
    define: { 'import.meta.dirname': '__dirname' },
    plugins: [
      {
        name: 'packages-finding-their-files',
        setup(build) {
          for (const name of FINDING_THEIR_FILES) {
            const root = path.join(ROOT, 'node_modules', name)
            build.onLoad({ filter: new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/.*\\.js$`) }, ({ path: file }) => {
              const source = fs.readFileSync(file, 'utf8')
              if (!/\b__dirname\b/.test(source)) return undefined
              const own = `require("node:path").join(require("node:path").dirname(require.resolve("${name}/package.json")), ${JSON.stringify(path.relative(root, path.dirname(file)))})`
              return { contents: `var __dirname = ${own}; ${source}`, loader: 'js' }
            })
          }
        }
      },
      {
        name: 'lazily-loaded-libraries',
        setup(build) {
          // A library our own code imports with `import()`, which it loads with its feature's first use.
          build.onResolve({ filter: BARE }, ({ path: library, kind, importer }) => {
            if (kind !== 'dynamic-import' || library.startsWith('node:') || !importer.startsWith(path.join(DIST, 'src'))) return undefined
            libraries.add(library)
            return { path: library, namespace: 'lazily-loaded' }
          })
          build.onLoad({ filter: /.*/, namespace: 'lazily-loaded' }, ({ path: library }) => ({
            contents: `export * from './${lazyFileOf(library)}'; export { default } from './${lazyFileOf(library)}'`,
            loader: 'js'
          }))
          build.onResolve({ filter: /^\.\/lazy\//, namespace: 'lazily-loaded' }, ({ path: file }) => ({ path: file, external: true }))
        }
      }
    ]
  })
  const lazy = await build({
    ...common,
    entryPoints: Object.fromEntries([...libraries].map((library) => [lazyFileOf(library).replace(/\.cjs$/, ''), library])),
    outdir: folder,
    outExtension: { '.js': '.cjs' },
    format: 'cjs'
  })
  const bundles = Object.keys(SERVER_ENTRIES).map((name) => path.join(folder, `${name}.cjs`))
  for (const bundle of bundles) {
    // esbuild writes every character of a string, template or regular expression outside ASCII as
    // an escape (its default charset); what is left is in the comments it keeps, and a single such
    // character would make the whole source a two-byte string (src/shared/bundle-runner.ts).
    fs.writeFileSync(bundle, fs.readFileSync(bundle, 'utf8').replace(/[^\0-\x7f]/g, '?'))
  }
  await writeCodeCaches(bundles)
  for (const name of Object.keys(SERVER_ENTRIES)) {
    fs.writeFileSync(
      path.join(SERVER_DIR, `${name}.js`),
      `// Written by scripts/build.mjs: starts this build's bundle with its code cache.
import path from 'node:path'
import { runBundle } from '../src/shared/bundle-runner.js'

await runBundle(path.join(import.meta.dirname, '${path.basename(folder)}', '${name}.cjs'))
`
    )
  }
  fs.writeFileSync(SERVER_METAFILE, JSON.stringify({ inputs: { ...services.metafile.inputs, ...lazy.metafile.inputs }, outputs: { ...services.metafile.outputs, ...lazy.metafile.outputs } }))
  // The build before stays for one more build: a service still running it imports its lazy/
  // libraries on the first use of their feature (the first sign-in through an application).
  const keep = new Set([...previous, path.basename(folder), path.basename(SERVER_METAFILE), ...Object.keys(SERVER_ENTRIES).map((name) => `${name}.js`)])
  for (const name of fs.readdirSync(SERVER_DIR)) if (!keep.has(name)) fs.rmSync(path.join(SERVER_DIR, name), { recursive: true, force: true })
}

/**
 * Starts each service bundle with the services' node flags, on a database of the build's own, and
 * writes its code cache once it listens (src/shared/bundle-runner.ts). The first bundle starts
 * twice: its first start creates the database and the keys, and a cache is of what every later
 * start runs.
 */
async function writeCodeCaches([first, ...others]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-code-cache-'))
  try {
    for (const bundle of [first, first, ...others]) {
      const [hubPort, tasksPort] = [await freePort(), await freePort()]
      const result = spawnSync(process.execPath, [...NODE_FLAGS, path.join(DIST, 'scripts/write-code-cache.js'), bundle], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', DATA_DIR: dataDir, HUB_PORT: hubPort, HUB_PUBLIC_URL: `http://127.0.0.1:${hubPort}`, PORT: tasksPort },
        encoding: 'utf8',
        timeout: CODE_CACHE_TIMEOUT_MS
      })
      const outcome = result.signal ?? `exit code ${result.status}`
      if (result.status !== 0) throw new Error(`${path.basename(bundle)} did not start to write its code cache (${outcome}):\n${result.stdout}${result.stderr}`)
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** A port nothing listens on, as a string for the environment: one free a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(String(port)))
    })
  })
}

/** The files a server bundle's metafile lists, as absolute paths; none when there is no bundle yet. */
function outputsOf(metafilePath) {
  try {
    return Object.keys(JSON.parse(fs.readFileSync(metafilePath, 'utf8')).outputs).map((file) => path.resolve(ROOT, file))
  } catch {
    return []
  }
}

async function main() {
  // The quick answer, without the lock: nothing changed and no build is under way.
  if (!force && readStamp() === fingerprint() && !fs.existsSync(LOCK)) return 0

  await acquireLock()
  // Released on Ctrl-C too (the compiler gets the signal as well); a crash leaves a stale lock.
  const onSignal = (signal) => {
    releaseLock()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    // Taken before compiling, so an edit made during the build makes the next call build again.
    const inputs = fingerprint()
    if (!force && readStamp() === inputs) return 0 // the build we waited for was of these sources
    if (!force) say('Building dist/ (its sources changed since the last build)...')
    fs.rmSync(STAMP, { force: true })
    const require = createRequire(import.meta.url)
    run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'])
    run(process.execPath, ['dist/scripts/build-client.js'])
    await bundleServer()
    fs.writeFileSync(STAMP, `${inputs}\n`)
    return 0
  } catch (error) {
    say(error.message)
    return 1
  } finally {
    releaseLock()
  }
}

process.exitCode = await main()
