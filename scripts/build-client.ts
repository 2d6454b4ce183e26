import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

/**
 * Bundles the hub pages' script and stylesheet into dist/public under content-hashed names, and
 * writes manifest.json naming them, which the hub reads at start-up. Hashed names let the hub
 * serve them with a year-long immutable cache: a changed file is a new URL.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const CLIENT_DIR = path.join(ROOT, 'src/hub/client')
const OUT_DIR = path.join(ROOT, 'dist/public')

fs.rmSync(OUT_DIR, { recursive: true, force: true })
const result = await build({
  entryPoints: [path.join(CLIENT_DIR, 'hub.ts'), path.join(CLIENT_DIR, 'hub.css')],
  outdir: OUT_DIR,
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
  tsconfig: path.join(CLIENT_DIR, 'tsconfig.json'),
  metafile: true,
  logLevel: 'warning'
})

const outputNamed = (extension: string): string => {
  const output = Object.keys(result.metafile.outputs).find((file) => file.endsWith(extension))
  if (!output) throw new Error(`esbuild wrote no ${extension} file`)
  return path.basename(output)
}
fs.writeFileSync(path.join(OUT_DIR, 'manifest.json'), JSON.stringify({ script: outputNamed('.js'), stylesheet: outputNamed('.css') }, null, 2))
