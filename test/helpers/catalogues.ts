import { readdirSync } from 'node:fs'
import { expect, it } from 'vitest'
import { LANGUAGES } from '../../src/hub/kernel/language/language.js'

export type Catalogues = Record<string, Record<string, string>>

export const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

const isCatalogues = (value: unknown): value is Catalogues =>
  typeof value === 'object' && value !== null && Object.keys(value).sort().join() === [...LANGUAGES].sort().join()

/** Every export that is one catalogue a language, of each `src/hub/features/<feature>/<file>`. */
async function featureCatalogues(file: string): Promise<[string, Catalogues][]> {
  const features = new URL('../../src/hub/features/', import.meta.url)
  const found: [string, Catalogues][] = []
  for (const feature of readdirSync(features, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    if (!readdirSync(new URL(`${feature.name}/`, features)).includes(file)) continue
    const module = (await import(new URL(`${feature.name}/${file}`, features).href)) as Record<string, unknown>
    for (const [name, value] of Object.entries(module)) if (isCatalogues(value)) found.push([`${feature.name} ${name}`, value])
  }
  return found
}

/**
 * The rules every set of catalogues keeps, the kernel's and each feature's `file` (docs/architecture.md,
 * "Messages"): the features that keep one are the ones expected; every language has exactly the
 * English keys and the same placeholders; no message is empty; every key has one owner.
 */
export async function catalogueRules(kernel: Catalogues, file: string, expectedFeatures: readonly string[]): Promise<void> {
  const features = await featureCatalogues(file)
  const all: [string, Catalogues][] = [['kernel', kernel], ...features]
  const byLanguage = all.flatMap(([owner, catalogues]) =>
    Object.entries(catalogues)
      .filter(([language]) => language !== 'en')
      .map(([language, catalogue]) => [`${owner}: ${language}`, catalogue, catalogues.en!] as const)
  )

  it(`finds the features that keep their own ${file}`, () => {
    // A feature may keep several catalogues in its file (oidc: the provider's pages' and the console's).
    expect([...new Set(features.map(([owner]) => owner.split(' ')[0]))].sort()).toEqual([...expectedFeatures].sort())
  })

  it.each(byLanguage)('%s has exactly the keys of the English catalogue', (_owner, catalogue, reference) => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(reference).sort())
  })

  it.each(byLanguage)('%s uses the same placeholders as English in every message', (_owner, catalogue, reference) => {
    for (const [key, text] of Object.entries(reference)) {
      expect({ key, placeholders: placeholders(catalogue[key]!) }).toEqual({ key, placeholders: placeholders(text) })
    }
  })

  it.each(all)('%s has no empty message', (_owner, catalogues) => {
    for (const catalogue of Object.values(catalogues)) expect(Object.entries(catalogue).filter(([, text]) => text.trim() === '')).toEqual([])
  })

  it('gives each key one owner: no feature reuses a key of the kernel or of another feature', () => {
    const owners = new Map<string, string[]>()
    for (const [owner, catalogues] of all) for (const key of Object.keys(catalogues.en!)) owners.set(key, [...(owners.get(key) ?? []), owner])
    expect([...owners].filter(([, keyOwners]) => keyOwners.length > 1)).toEqual([])
  })
}
