import { describe, expect, it } from 'vitest'
import { chooseLanguage } from '../../../../src/hub/kernel/language/language.js'

describe('chooseLanguage', () => {
  it.each([
    [undefined, undefined, 'en'],
    [undefined, '', 'en'],
    [undefined, 'es', 'es'],
    [undefined, 'es-MX', 'es'],
    [undefined, 'ES-es', 'es'],
    [undefined, 'en-GB,en;q=0.9', 'en'],
    [undefined, 'fr, es;q=0.8, en;q=0.5', 'es'],
    [undefined, 'en;q=0.4, es;q=0.9', 'es'],
    [undefined, 'es;q=0, en;q=0.1', 'en'],
    [undefined, 'fr, de', 'en'],
    [undefined, '*', 'en'],
    [undefined, 'garbage;;;q=x', 'en'],
    ['es', 'en', 'es'],
    ['en', 'es', 'en'],
    ['fr', 'es', 'es'],
    ['', 'es', 'es']
  ])('lang cookie %j with Accept-Language %j picks %s', (cookie, header, expected) => {
    expect(chooseLanguage(cookie, header)).toBe(expected)
  })
})
