import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ACTIVITY_READINGS } from '../../../../src/hub/activity.js'
import { LANGUAGES } from '../../../../src/hub/kernel/language/language.js'
import { CATALOGUES, featureTranslator, translatorFor } from '../../../../src/hub/kernel/pages/i18n/index.js'

type Catalogues = Record<string, Record<string, string>>

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

const isCatalogues = (value: unknown): value is Catalogues =>
  typeof value === 'object' && value !== null && Object.keys(value).sort().join() === [...LANGUAGES].sort().join()

/** Every feature's page messages: each export of a `features/<feature>/messages.ts` that is one catalogue a language. */
const FEATURES = new URL('../../../../src/hub/features/', import.meta.url)
const featureCatalogues: [string, Catalogues][] = []
for (const feature of readdirSync(FEATURES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  if (!readdirSync(new URL(`${feature.name}/`, FEATURES)).includes('messages.ts')) continue
  const module = (await import(new URL(`${feature.name}/messages.ts`, FEATURES).href)) as Record<string, unknown>
  for (const [name, value] of Object.entries(module)) if (isCatalogues(value)) featureCatalogues.push([`${feature.name} ${name}`, value])
}

const ALL: [string, Catalogues][] = [['kernel', CATALOGUES], ...featureCatalogues]
const byLanguage = ALL.flatMap(([owner, catalogues]) =>
  Object.entries(catalogues)
    .filter(([language]) => language !== 'en')
    .map(([language, catalogue]) => [`${owner}: ${language}`, catalogue, catalogues.en!] as const)
)

describe('page catalogues', () => {
  it('finds the features that keep their own messages', () => {
    expect(featureCatalogues.map(([owner]) => owner.split(' ')[0]).sort()).toEqual(['account', 'activity', 'billing', 'export', 'oidc', 'passkeys', 'privacy', 'two-step'])
  })

  it.each(byLanguage)('%s has exactly the keys of the English catalogue', (_owner, catalogue, reference) => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(reference).sort())
  })

  it.each(byLanguage)('%s uses the same placeholders as English in every message', (_owner, catalogue, reference) => {
    for (const [key, text] of Object.entries(reference)) {
      expect({ key, placeholders: placeholders(catalogue[key]!) }).toEqual({ key, placeholders: placeholders(text) })
    }
  })

  it.each(ALL)('%s has no empty message', (_owner, catalogues) => {
    for (const catalogue of Object.values(catalogues)) expect(Object.entries(catalogue).filter(([, text]) => text.trim() === '')).toEqual([])
  })

  it('gives each key one owner: no feature reuses a key of the kernel or of another feature', () => {
    const owners = new Map<string, string[]>()
    for (const [owner, catalogues] of ALL) for (const key of Object.keys(catalogues.en!)) owners.set(key, [...(owners.get(key) ?? []), owner])
    expect([...owners].filter(([, keyOwners]) => keyOwners.length > 1)).toEqual([])
  })

  it.each(Object.entries(ACTIVITY_READINGS))('the activity sentences of %s have every language, none empty, the same placeholders', (_type, reading) => {
    for (const sentence of [reading.sentence, ...Object.values(reading.variants ?? {})]) {
      expect(Object.keys(sentence).sort()).toEqual([...LANGUAGES].sort())
      for (const text of Object.values(sentence)) {
        expect(text.trim()).not.toBe('')
        expect(placeholders(text)).toEqual(placeholders(sentence.en))
      }
    }
  })

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translatorFor('es')('dashboard.signedInAs', { email: 'ana@example.com' })).toBe('Sesión iniciada como ana@example.com')
    expect(translatorFor('en')('dashboard.signedInAs')).toBe('Signed in as {email}')
  })

  it("composes a feature's messages with the kernel's, and refuses a key the kernel has", () => {
    const t = featureTranslator({ en: { 'sample.hello': 'Hello {name}' }, es: { 'sample.hello': 'Hola {name}' } })
    expect(t('es')('sample.hello', { name: 'Ana' })).toBe('Hola Ana')
    expect(t('es')('dashboard.signedInAs', { email: 'ana@example.com' })).toBe('Sesión iniciada como ana@example.com')
    expect(() => featureTranslator({ en: { 'login.title': 'Mine' }, es: { 'login.title': 'Mío' } })).toThrow(/login\.title/)
  })
})
