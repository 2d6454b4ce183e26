import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../../../src/hub/kernel/language/language.js'
import { MAIL_CATALOGUES, featureMailTranslator } from '../../../../src/hub/kernel/mail/i18n.js'

type Catalogues = Record<string, Record<string, string>>

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

const isCatalogues = (value: unknown): value is Catalogues =>
  typeof value === 'object' && value !== null && Object.keys(value).sort().join() === [...LANGUAGES].sort().join()

/** Every feature's mail words: each export of a `features/<feature>/mail-messages.ts` that is one catalogue a language. */
const FEATURES = new URL('../../../../src/hub/features/', import.meta.url)
const featureCatalogues: [string, Catalogues][] = []
for (const feature of readdirSync(FEATURES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  if (!readdirSync(new URL(`${feature.name}/`, FEATURES)).includes('mail-messages.ts')) continue
  const module = (await import(new URL(`${feature.name}/mail-messages.ts`, FEATURES).href)) as Record<string, unknown>
  for (const [name, value] of Object.entries(module)) if (isCatalogues(value)) featureCatalogues.push([`${feature.name} ${name}`, value])
}

const ALL: [string, Catalogues][] = [['kernel', MAIL_CATALOGUES], ...featureCatalogues]
const byLanguage = ALL.flatMap(([owner, catalogues]) =>
  Object.entries(catalogues)
    .filter(([language]) => language !== 'en')
    .map(([language, catalogue]) => [`${owner}: ${language}`, catalogue, catalogues.en!] as const)
)

describe('mail catalogues', () => {
  it('finds the features that send their own mails', () => {
    expect(featureCatalogues.map(([owner]) => owner.split(' ')[0]).sort()).toEqual(['account', 'billing', 'deletion', 'passkeys', 'two-step'])
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

  it("composes a feature's mail words with the kernel's, and refuses a key the kernel has", () => {
    const t = featureMailTranslator({ en: { 'sample.hello': 'Hello {name}' }, es: { 'sample.hello': 'Hola {name}' } })
    expect(t('es')('sample.hello', { name: 'Ana' })).toBe('Hola Ana')
    expect(t('es')('mail.footer', { origin: 'https://hub.example' })).toBe('Este correo lo ha enviado el hub de Hearth en https://hub.example. Sus enlaces solo llevan allí.')
    expect(() => featureMailTranslator({ en: { 'mail.footer': 'Mine' }, es: { 'mail.footer': 'Mío' } })).toThrow(/mail\.footer/)
  })
})
