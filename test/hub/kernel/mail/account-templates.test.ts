import { describe, expect, it } from 'vitest'
import { emailVerificationMail, passwordChangedMail } from '../../../../src/hub/kernel/mail/templates.js'

const HUB = 'https://hub.family.example'

describe('the email-verification mail', () => {
  it.each([
    ['en', 'Confirm your address for Hearth', '24 hours'],
    ['es', 'Confirma tu dirección en Hearth', '24 horas']
  ] as const)('is written in %s, with the link in both parts', (language, subject, validity) => {
    const mail = emailVerificationMail({ publicUrl: HUB, language, email: 'ada@example.com', token: 'abc_DEF-123' })
    expect(mail.subject).toBe(subject)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(`${HUB}/verify-email#token=abc_DEF-123`)
      expect(part).toContain(validity)
      expect(part).toContain('ada@example.com')
    }
    expect(mail.html).toContain(`<html lang="${language}">`)
    expect(mail.html).not.toMatch(/<img|<script|<link|<style|src=/i)
  })
})

describe('the password-changed notice', () => {
  it.each([
    ['en', 'Your Hearth password was changed'],
    ['es', 'Se ha cambiado tu contraseña de Hearth']
  ] as const)('is written in %s, names the account and links to a new reset, with no token', (language, subject) => {
    const mail = passwordChangedMail({ publicUrl: HUB, language, email: '"<b>"@example.com' })
    expect(mail.subject).toBe(subject)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(`${HUB}/forgot-password`)
      expect(part).not.toContain('#token=')
    }
    expect(mail.text).toContain('"<b>"@example.com')
    expect(mail.html).toContain('&quot;&lt;b>&quot;@example.com')
  })
})
