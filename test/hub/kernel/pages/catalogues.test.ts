import { describe, expect, it } from 'vitest'
import { ACTIVITY_READINGS } from '../../../../src/hub/activity.js'
import { LANGUAGES } from '../../../../src/hub/kernel/language/language.js'
import { CATALOGUES, featureTranslator, translatorFor } from '../../../../src/hub/kernel/pages/i18n/index.js'
import { catalogueRules, placeholders } from '../../../helpers/catalogues.js'

describe('page catalogues', async () => {
  await catalogueRules(CATALOGUES, 'messages.ts', ['account', 'activity', 'admin', 'billing', 'export', 'groups', 'invitations', 'oidc', 'passkeys', 'privacy', 'two-step', 'users'])

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
