import { describe, expect, it } from 'vitest'
import { accountDeletedMail } from '../../../../src/hub/features/deletion/mails.js'

const PUBLIC_URL = 'https://hub.family.example'

describe('the confirmation of an account deletion', () => {
  it.each([
    ['en', 'Your Hearth account was deleted', 'the applications of the family are told to erase theirs'],
    ['es', 'Se ha eliminado tu cuenta de Hearth', 'se ha pedido a las aplicaciones de la familia que borren lo suyo']
  ] as const)('is written in %s, names the address, says what is kept, and links to sign-up without a token', (language, subject, applications) => {
    const mail = accountDeletedMail({ publicUrl: PUBLIC_URL, language, email: 'ada@example.com' })
    expect(mail.subject).toBe(subject)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('ada@example.com')
      expect(part).toContain(applications)
      expect(part).toContain(`${PUBLIC_URL}/signup`)
      expect(part).not.toContain('#token=')
    }
    expect(mail.html).toContain(`<html lang="${language}">`)
  })
})
