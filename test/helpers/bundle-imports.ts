import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '../..')
/** Written by scripts/build.mjs beside the server bundle; its paths are relative to ROOT. */
const METAFILE = path.join(ROOT, 'dist/server/meta.json')
const BARE = /^(?![./]|node:|file:|data:)/

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean; original?: string }[] }>
  outputs: Record<string, { inputs: Record<string, unknown> }>
}

/**
 * The bare specifiers the modules inside the server bundle's loaded files import, as
 * record-imports.mjs would have recorded them had node resolved those modules one by one: in the
 * bundle, `pg` is no import node sees but a chunk holding node-postgres. `loaded` is the file: URLs
 * the recorder wrote. A module's static imports count once its chunk is loaded; a dynamic
 * `import()` once the chunk holding its target is, which is when it has run. Like the recorder
 * (a resolve hook, which node's `require` does not call), `require` calls inside CommonJS
 * packages do not count.
 */
export function bundledImports(loaded: Iterable<string>): Set<string> {
  const { inputs, outputs } = JSON.parse(fs.readFileSync(METAFILE, 'utf8')) as Metafile
  const loadedOutputs = new Set([...loaded].map((url) => path.relative(ROOT, fileURLToPath(url))).filter((file) => Object.hasOwn(outputs, file)))
  const outputOf = new Map(Object.entries(outputs).flatMap(([output, { inputs: held }]) => Object.keys(held).map((input) => [input, output] as const)))
  const specifiers = new Set<string>()
  for (const output of loadedOutputs) {
    for (const input of Object.keys(outputs[output]!.inputs)) {
      for (const { path: target, kind, external, original = target } of inputs[input]?.imports ?? []) {
        if (!BARE.test(original)) continue
        const ran = kind === 'import-statement' || (kind === 'dynamic-import' && !external && loadedOutputs.has(outputOf.get(target) ?? ''))
        if (ran) specifiers.add(original)
      }
    }
  }
  return specifiers
}
