import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '../..')
/** Written by scripts/build.mjs beside the server bundle; its paths are relative to ROOT. */
const METAFILE = path.join(ROOT, 'dist/server/meta.json')
const BARE = /^(?![./]|node:|file:|data:)/
/** The build's stand-in for a lazily loaded library: it re-exports the library's own file (lazy/…). */
const LAZILY_LOADED = 'lazily-loaded:'

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean; original?: string }[] }>
  outputs: Record<string, { inputs: Record<string, unknown> }>
}

/**
 * The bare specifiers the modules inside the server bundle's loaded files import, as
 * record-imports.mjs would have recorded them had node resolved those modules one by one: in the
 * bundle, `pg` is no import node sees but a file holding node-postgres. `loaded` is the file: URLs
 * the recorder wrote. A launcher (dist/server/hub.js) loads its service's bundle (build-…/hub.cjs);
 * a module's static imports count once its file is loaded; a dynamic `import()` once the file
 * holding its target is, which is when it has run: for a lazily loaded library, its lazy/ file.
 * Like the recorder's resolve hook, `require` calls inside CommonJS packages do not count.
 */
export function bundledImports(loaded: Iterable<string>): Set<string> {
  const { inputs, outputs } = JSON.parse(fs.readFileSync(METAFILE, 'utf8')) as Metafile
  const files = [...loaded].map((url) => path.relative(ROOT, fileURLToPath(url)))
  const bundles = files.flatMap((file) => /^dist\/server\/(\w+)\.js$/.exec(file)?.[1] ?? []).map((name) => new RegExp(`^dist/server/build-[^/]+/${name}\\.cjs$`))
  const loadedOutputs = new Set(Object.keys(outputs).filter((output) => files.includes(output) || bundles.some((bundle) => bundle.test(output))))
  const outputOf = new Map(Object.entries(outputs).flatMap(([output, { inputs: held }]) => Object.keys(held).map((input) => [input, output] as const)))
  const ran = (target: string) => {
    const output = outputOf.get(target) ?? ''
    if (!target.startsWith(LAZILY_LOADED)) return loadedOutputs.has(output)
    return (inputs[target]?.imports ?? []).some(({ path: file }) => loadedOutputs.has(path.join(path.dirname(output), file)))
  }
  const specifiers = new Set<string>()
  for (const output of loadedOutputs) {
    for (const input of Object.keys(outputs[output]!.inputs)) {
      for (const { path: target, kind, external, original = target } of inputs[input]?.imports ?? []) {
        if (!BARE.test(original)) continue
        if (kind === 'import-statement' || (kind === 'dynamic-import' && !external && ran(target))) specifiers.add(original)
      }
    }
  }
  return specifiers
}
