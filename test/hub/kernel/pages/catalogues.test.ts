import { describe, expect, it } from 'vitest'
import { CATALOGUES, translatorFor } from '../../../../src/hub/kernel/pages/i18n/index.js'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe('page catalogues', () => {
  const [reference, ...others] = Object.entries(CATALOGUES)

  it.each(others)('%s has exactly the keys of the English catalogue', (_language, catalogue) => {
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(reference![1]).sort())
  })

  it.each(others)('%s uses the same placeholders as English in every message', (_language, catalogue) => {
    for (const [key, text] of Object.entries(reference![1])) {
      expect({ key, placeholders: placeholders(catalogue[key as keyof typeof catalogue]) }).toEqual({ key, placeholders: placeholders(text) })
    }
  })

  it.each(Object.entries(CATALOGUES))('%s has no empty message', (_language, catalogue) => {
    expect(Object.entries(catalogue).filter(([, text]) => text.trim() === '')).toEqual([])
  })

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translatorFor('es')('dashboard.signedInAs', { email: 'ana@example.com' })).toBe('Sesión iniciada como ana@example.com')
    expect(translatorFor('en')('dashboard.signedInAs')).toBe('Signed in as {email}')
  })
})
