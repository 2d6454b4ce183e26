import { describe, expect, it } from 'vitest'
import { MAIL_CATALOGUES, featureMailTranslator } from '../../../../src/hub/kernel/mail/i18n.js'
import { catalogueRules } from '../../../helpers/catalogues.js'

describe('mail catalogues', async () => {
  await catalogueRules(MAIL_CATALOGUES, 'mail-messages.ts', ['account', 'billing', 'deletion', 'invitations', 'passkeys', 'two-step'])

  it("composes a feature's mail words with the kernel's, and refuses a key the kernel has", () => {
    const t = featureMailTranslator({ en: { 'sample.hello': 'Hello {name}' }, es: { 'sample.hello': 'Hola {name}' } })
    expect(t('es')('sample.hello', { name: 'Ana' })).toBe('Hola Ana')
    expect(t('es')('mail.footer', { origin: 'https://hub.example' })).toBe('Este correo lo ha enviado el hub de Hearth en https://hub.example. Sus enlaces solo llevan allí.')
    expect(() => featureMailTranslator({ en: { 'mail.footer': 'Mine' }, es: { 'mail.footer': 'Mío' } })).toThrow(/mail\.footer/)
  })
})
