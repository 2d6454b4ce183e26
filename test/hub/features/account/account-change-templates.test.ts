import { describe, expect, it } from 'vitest'
import { emailChangeConfirmationMail, emailChangeNoticeMail, passwordChangedInSessionMail } from '../../../../src/hub/features/account/mails.js'
import type { Language } from '../../../../src/hub/kernel/language/language.js'

const PUBLIC_URL = 'https://hub.family.example'
const TOKEN = 'abc_DEF-123'
const addresses = { oldEmail: 'ada@example.com', newEmail: 'ada@new.example' }

const mails = (language: Language) => ({
  confirmation: emailChangeConfirmationMail({ publicUrl: PUBLIC_URL, language, ...addresses, token: TOKEN }),
  notice: emailChangeNoticeMail({ publicUrl: PUBLIC_URL, language, ...addresses }),
  passwordChanged: passwordChangedInSessionMail({ publicUrl: PUBLIC_URL, language, email: addresses.oldEmail })
})

describe('the mails of a credential change', () => {
  it.each([
    ['en', 'Confirm the new address of your Hearth account', 'A new address was asked for your Hearth account', 'Your Hearth password was changed', '24 hours'],
    ['es', 'Confirma la nueva dirección de tu cuenta de Hearth', 'Se ha pedido una nueva dirección para tu cuenta de Hearth', 'Se ha cambiado tu contraseña de Hearth', '24 horas']
  ] as const)('are written in %s', (language, confirmationSubject, noticeSubject, passwordSubject, validity) => {
    const { confirmation, notice, passwordChanged } = mails(language)
    expect([confirmation.subject, notice.subject, passwordChanged.subject]).toEqual([confirmationSubject, noticeSubject, passwordSubject])
    for (const part of [confirmation.text, confirmation.html]) {
      expect(part).toContain(`${PUBLIC_URL}/confirm-email#token=${TOKEN}`)
      expect(part).toContain(validity)
      expect(part).toContain(addresses.newEmail)
    }
    for (const part of [notice.text, notice.html]) expect(part).toContain(addresses.newEmail)
    expect(confirmation.html).toContain(`<html lang="${language}">`)
  })

  it('carry a token only in the confirmation, and link only to the hub', () => {
    const { confirmation, notice, passwordChanged } = mails('en')
    expect(notice.text).not.toContain('#token=')
    expect(passwordChanged.text).not.toContain('#token=')
    for (const { html } of [confirmation, notice, passwordChanged]) {
      expect([...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => new URL(href ?? '').origin)).toEqual([PUBLIC_URL])
    }
  })
})
