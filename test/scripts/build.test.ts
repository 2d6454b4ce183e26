import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * scripts/build.mjs on a small project of the same shape (src/ with the three service entry points
 * it bundles, scripts/build-client.ts, a tsconfig.build.json), so the tests build in seconds and
 * never touch this checkout's dist/. Its build-client step notes each build in builds.log and,
 * like the real one, empties dist/public first and writes manifest.json last; with SLOW_CLIENT_BUILD
 * set, as the test of two callers at once sets it, a second later: a start during a build would
 * find no manifest.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
let project = ''

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true })
  fs.writeFileSync(path.join(project, file), text)
}
const builds = () => (fs.existsSync(path.join(project, 'builds.log')) ? fs.readFileSync(path.join(project, 'builds.log'), 'utf8').split('\n').filter(Boolean).length : 0)
/** The project's `npm start` bundle: it says which version started, once its launcher runs it. */
const setVersion = (version: number) =>
  write('src/main.ts', `export const version: number = ${version}\nconsole.log('started version ' + version)\nexport const started = Promise.resolve()\n`)

/** `node scripts/build.mjs`, then what a start script would run: the server bundle and the manifest. */
const buildAndStart = `node scripts/build.mjs && node -e "
  const fs = require('node:fs')
  if (!fs.existsSync('dist/public/manifest.json')) { console.log('half-written dist'); process.exit(3) }
  import('./dist/server/main.js')
"`

function run(command: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const started = Date.now()
  const child: ChildProcess = spawn('sh', ['-c', command], { cwd: project, env: { ...process.env, ...env } })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err, ms: Date.now() - started })))
}

describe('scripts/build.mjs: build when the sources changed, one build at a time', () => {
  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-build-'))
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'))
    for (const file of ['scripts/build.mjs', 'scripts/node-flags.mjs', 'scripts/write-code-cache.ts', 'src/shared/bundle-runner.ts']) fs.cpSync(path.join(ROOT, file), path.join(project, file))
    write('package.json', JSON.stringify({ type: 'module' }))
    write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'] } }))
    write(
      'tsconfig.build.json',
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: '.', outDir: 'dist', incremental: true, tsBuildInfoFile: 'dist/.tsbuildinfo' }, include: ['src', 'scripts'] })
    )
    write(
      'scripts/build-client.ts',
      `import fs from 'node:fs'
fs.appendFileSync('builds.log', 'build\\n')
fs.rmSync('dist/public', { recursive: true, force: true })
if (process.env.SLOW_CLIENT_BUILD) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)
fs.mkdirSync('dist/public', { recursive: true })
fs.writeFileSync('dist/public/manifest.json', '{}')
`
    )
    setVersion(1)
    write('src/hub/main.ts', "export const service: string = 'hub'\n")
    write('src/tasks/main.ts', "export const service: string = 'tasks'\n")
  })
  afterAll(() => fs.rmSync(project, { recursive: true, force: true }))

  it('builds the first time and not the second, when nothing changed', async () => {
    const first = await run(buildAndStart)
    expect(first.out).toBe('started version 1\n')
    expect(first.err).toMatch(/Building dist\//)
    const second = await run(buildAndStart)
    expect(second.out).toBe('started version 1\n')
    expect(second.err).toBe('')
    expect(builds()).toBe(1)
    // No compiler, no bundler: only a look at the inputs' sizes and times.
    expect(second.ms).toBeLessThan(first.ms)
  })

  it('builds again when a source changes, a file is added, or one is removed', async () => {
    setVersion(2)
    expect((await run(buildAndStart)).out).toBe('started version 2\n')
    expect(builds()).toBe(2)
    write('src/extra.ts', 'export const extra = 1\n')
    await run('node scripts/build.mjs')
    fs.rmSync(path.join(project, 'src/extra.ts'))
    await run('node scripts/build.mjs')
    expect(builds()).toBe(4)
    await run('node scripts/build.mjs')
    expect(builds()).toBe(4)
  })

  it('lets a second caller wait for the build under way, so neither starts on a half-written dist', async () => {
    setVersion(3)
    const first = run(buildAndStart, { SLOW_CLIENT_BUILD: '1' })
    // The second starts once the first holds the lock, in the middle of its build.
    while (!fs.existsSync(path.join(project, '.build-lock'))) await new Promise((resolve) => setTimeout(resolve, 20))
    const second = run(buildAndStart, { SLOW_CLIENT_BUILD: '1' })
    const results = await Promise.all([first, second])
    expect(results.map((result) => result.out)).toEqual(['started version 3\n', 'started version 3\n'])
    expect(results[1]?.err).toMatch(/Waiting for the build under way/)
    expect(results[1]?.err).not.toMatch(/Building/)
    expect(builds()).toBe(5)
    expect(fs.existsSync(path.join(project, '.build-lock'))).toBe(false)
  })

  it('builds again with --force, and removes a lock its dead owner left', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim()
    write('.build-lock/owner.json', JSON.stringify({ pid: Number(gone), host: os.hostname(), startedAt: Date.now() }))
    const forced = await run('node scripts/build.mjs --force')
    expect(forced.code).toBe(0)
    expect(forced.err).toMatch(/Removing the stale build lock/)
    expect(builds()).toBe(6)
    expect(fs.existsSync(path.join(project, '.build-lock'))).toBe(false)
  })

  it('fails, and builds again next time, when the compiler fails', async () => {
    write('src/main.ts', 'export const version: number = "three"\n')
    const failed = await run('node scripts/build.mjs')
    expect(failed.code).toBe(1)
    expect(failed.err).toMatch(/tsc failed/)
    expect(fs.existsSync(path.join(project, 'dist/.build-stamp'))).toBe(false)
    setVersion(4)
    expect((await run(buildAndStart)).out).toBe('started version 4\n')
  })

  it('fails, naming the bundle, when a service does not start to write its code cache', async () => {
    write('src/tasks/main.ts', "export const started: Promise<void> = Promise.reject(new Error('no database here'))\n")
    const failed = await run('node scripts/build.mjs')
    expect(failed.code).toBe(1)
    expect(failed.err).toMatch(/tasks\.cjs did not start to write its code cache \(exit code 1\):[\s\S]*no database here/)
    expect(fs.existsSync(path.join(project, 'dist/.build-stamp'))).toBe(false)
    write('src/tasks/main.ts', "export const service: string = 'tasks'\n")
    expect((await run('node scripts/build.mjs')).code).toBe(0)
  })

  it("keeps the server bundle's build before for one more build, for a service still running it to load a library from", async () => {
    const buildFolders = () => fs.readdirSync(path.join(project, 'dist/server')).filter((name) => name.startsWith('build-'))
    write('src/hub/main.ts', "export const csv = () => import('csv-stringify')\n")
    for (const n of [1, 2, 3]) {
      write('src/hub/extra.ts', `export const n: number = ${n}\n`)
      expect((await run('node scripts/build.mjs')).code).toBe(0)
    }
    expect(buildFolders()).toHaveLength(2)
    for (const folder of buildFolders()) expect(fs.existsSync(path.join(project, 'dist/server', folder, 'lazy/csv-stringify.cjs'))).toBe(true)
  })
})
