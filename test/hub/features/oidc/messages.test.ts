import { describe, expect, it } from 'vitest'
import { OIDC_CATALOGUES } from '../../../../src/hub/features/oidc/messages.js'

const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe('the provider pages’ messages', () => {
  it('has every message in Spanish with the same placeholders as in English', () => {
    const { en, es } = OIDC_CATALOGUES
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort())
    for (const [key, text] of Object.entries(en)) {
      expect(placeholdersOf(es[key as keyof typeof es]), key).toEqual(placeholdersOf(text))
      expect(es[key as keyof typeof es], key).not.toBe('')
    }
  })
})
