import fs from 'node:fs'
import path from 'node:path'

/** One import between two files of the tree, as paths relative to its root, without extension. */
export interface ImportEdge {
  from: string
  to: string
}

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g

/** Every relative import of the TypeScript files below `root` (declaration files aside). */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const from = path.relative(root, full)
        for (const match of fs.readFileSync(full, 'utf8').matchAll(IMPORT)) {
          const to = path.normalize(path.join(path.dirname(from), match[1] as string))
          edges.push({ from: withoutExtension(from), to: withoutExtension(to) })
        }
      }
    }
  }
  walk(root)
  return edges
}

function withoutExtension(file: string): string {
  return file.replace(/\.(tsx?|jsx?|json)$/, '')
}

const KERNEL = 'hub/kernel/'
const FEATURES = 'hub/features/'

function featureOf(file: string): string | undefined {
  return file.startsWith(FEATURES) ? file.slice(FEATURES.length).split('/')[0] : undefined
}

/**
 * The hub's two rules, one line per pair of folders that breaks one: the kernel imports no
 * feature, and a feature imports no other feature (what they share is the kernel's).
 */
export function ruleBreaks(edges: readonly ImportEdge[]): string[] {
  const breaks = new Set<string>()
  for (const { from, to } of edges) {
    const target = featureOf(to)
    if (target === undefined) continue
    if (from.startsWith(KERNEL)) breaks.add(`kernel imports a feature: ${KERNEL}${kernelPartOf(from)} -> ${FEATURES}${target}`)
    const source = featureOf(from)
    if (source !== undefined && source !== target) breaks.add(`feature imports a feature: ${FEATURES}${source} -> ${FEATURES}${target}`)
  }
  return [...breaks]
}

/** The kernel's part a file belongs to: its folder right under the kernel (pipeline, sessions, ...). */
function kernelPartOf(file: string): string {
  return file.slice(KERNEL.length).split('/')[0] as string
}

/**
 * Sibling folders that reach each other through imports, at every depth: for each folder, its
 * sub-folders are nodes, an import from a file under one to a file under another an arrow, and a
 * strongly connected set of more than one is a knot. A folder's own files are not a node: a
 * service's app.ts composes its folders.
 */
export function knotsOf(edges: readonly ImportEdge[]): string[] {
  const graphs = new Map<string, Map<string, Set<string>>>()
  for (const { from, to } of edges) {
    const a = from.split('/')
    const b = to.split('/')
    let depth = 0
    while (depth < Math.min(a.length, b.length) - 1 && a[depth] === b[depth]) depth++
    // Both sides must be folders below the common parent, not files in it.
    if (depth >= a.length - 1 || depth >= b.length - 1) continue
    const parent = a.slice(0, depth).join('/')
    const graph = graphs.get(parent) ?? new Map<string, Set<string>>()
    graphs.set(parent, graph)
    const source = a[depth] as string
    const target = b[depth] as string
    if (!graph.has(source)) graph.set(source, new Set())
    graph.get(source)?.add(target)
  }
  const knots: string[] = []
  for (const [parent, graph] of graphs) {
    for (const component of stronglyConnected(graph)) {
      if (component.length > 1) knots.push(`folders knotted in ${parent || '.'}: ${component.sort().join(', ')}`)
    }
  }
  return knots
}

/** Tarjan's algorithm: the strongly connected components of a small graph. */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter)
    counter++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string | undefined
      do {
        member = stack.pop() as string
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      components.push(component)
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return components
}
