import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

/**
 * Bundles the hub pages' script and stylesheet, and the task manager pages' script, into
 * dist/public under content-hashed names, and writes manifest.json naming them, which both
 * services read at start-up. Hashed names let the hub
 * serve them with a year-long immutable cache: a changed file is a new URL.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const CLIENT_DIR = path.join(ROOT, 'src/hub/client')
const TASKS_CLIENT_DIR = path.join(ROOT, 'src/tasks/client')
const OUT_DIR = path.join(ROOT, 'dist/public')

fs.rmSync(OUT_DIR, { recursive: true, force: true })
// Each bundle is built against its own tsconfig, so the hub's and the task manager's settings stay apart.
const bundle = (dir: string, entryPoints: string[]) =>
  build({
    entryPoints: entryPoints.map((entry) => path.join(dir, entry)),
    outdir: OUT_DIR,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
    tsconfig: path.join(dir, 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning'
  })
const hubResult = await bundle(CLIENT_DIR, ['hub.ts', 'hub.css'])
const tasksResult = await bundle(TASKS_CLIENT_DIR, ['tasks.ts'])

const outputNamed = (result: Awaited<ReturnType<typeof bundle>>, extension: string): string => {
  const output = Object.keys(result.metafile.outputs).find((file) => file.endsWith(extension))
  if (!output) throw new Error(`esbuild wrote no ${extension} file`)
  return path.basename(output)
}
fs.writeFileSync(path.join(OUT_DIR, 'manifest.json'), JSON.stringify({ script: outputNamed(hubResult, '.js'), stylesheet: outputNamed(hubResult, '.css'), tasksScript: outputNamed(tasksResult, '.js') }, null, 2))
