import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importEdges, knotsOf, ruleBreaks } from './helpers/import-graph.js'

/**
 * The hub's shape (docs/architecture.md): a kernel that knows no feature, features that know the
 * kernel and not each other, and no two folders anywhere in src/ that reach each other by imports.
 * A failure names each pair of folders that breaks a rule, and each knot.
 */
const SRC = path.resolve('src')
const edges = importEdges(SRC)

describe('the import graph of src/', () => {
  it('finds the files it reads', () => {
    expect(edges.length).toBeGreaterThan(500)
    expect(fs.existsSync(path.join(SRC, 'hub/kernel'))).toBe(true)
  })

  it('has no rule break and no folder knot', () => {
    expect([...ruleBreaks(edges), ...knotsOf(edges)].sort()).toEqual([])
  })
})

describe('the rules the graph is held to', () => {
  const edge = (from: string, to: string) => ({ from, to })

  it('names a kernel part that imports a feature, and a feature that imports another', () => {
    expect(ruleBreaks([edge('hub/kernel/pages/plugin', 'hub/features/billing/plans')])).toEqual(['kernel imports a feature: hub/kernel/pages -> hub/features/billing'])
    expect(ruleBreaks([edge('hub/features/sso/routes', 'hub/features/billing/claims')])).toEqual(['feature imports a feature: hub/features/sso -> hub/features/billing'])
    expect(ruleBreaks([edge('hub/features/sso/routes', 'hub/kernel/tokens/claims'), edge('hub/features/sso/routes', 'hub/features/sso/schemas'), edge('hub/app', 'hub/features/sso/routes')])).toEqual([])
  })

  it('finds folders that reach each other at any depth, through any path, but not a root file composing folders', () => {
    expect(knotsOf([edge('hub/kernel/a/x', 'hub/kernel/b/y'), edge('hub/kernel/b/y', 'hub/kernel/c/z'), edge('hub/kernel/c/z', 'hub/kernel/a/w')])).toEqual(['folders knotted in hub/kernel: a, b, c'])
    expect(knotsOf([edge('tasks/web/x', 'tasks/routes/y'), edge('tasks/routes/y', 'tasks/web/z')])).toEqual(['folders knotted in tasks: routes, web'])
    expect(knotsOf([edge('hub/app', 'hub/kernel/a/x'), edge('hub/kernel/a/x', 'hub/kernel/b/y')])).toEqual([])
  })
})

