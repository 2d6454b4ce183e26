import { describe, expect, it } from 'vitest'
import { passwordResetMail } from '../../../../src/hub/kernel/mail/templates.js'

const TOKEN = 'abc_DEF-123'

describe('the password-reset mail', () => {
  it.each([
    ['en', 'Reset your Hearth password', '30 minutes'],
    ['es', 'Restablece tu contraseña de Hearth', '30 minutos']
  ] as const)('is written in %s, with the link in both parts', (language, subject, validity) => {
    const mail = passwordResetMail({ publicUrl: 'https://hub.family.example', language, email: 'ada@example.com', token: TOKEN })
    expect(mail.subject).toBe(subject)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('https://hub.family.example/reset-password#token=abc_DEF-123')
      expect(part).toContain(validity)
      expect(part).toContain('ada@example.com')
    }
    expect(mail.html).toContain(`<html lang="${language}">`)
  })

  it('builds its link on HUB_PUBLIC_URL, path included', () => {
    const mail = passwordResetMail({ publicUrl: 'https://family.example/hub', language: 'en', email: 'ada@example.com', token: TOKEN })
    expect(mail.text).toContain('\nhttps://family.example/hub/reset-password#token=abc_DEF-123&email=ada%40example.com\n')
  })

  it('escapes what it interpolates into the HTML part', () => {
    const mail = passwordResetMail({ publicUrl: 'https://hub.family.example', language: 'en', email: '"<img src=x>"&@example.com', token: TOKEN })
    expect(mail.html).toContain('&quot;&lt;img src=x>&quot;&amp;@example.com')
    expect(mail.html).not.toContain('<img')
    expect(mail.text).toContain('"<img src=x>"&@example.com')
  })

  it('loads nothing remote, and links only to the hub', () => {
    const { html } = passwordResetMail({ publicUrl: 'https://hub.family.example', language: 'es', email: 'ada@example.com', token: TOKEN })
    expect(html).not.toMatch(/<img|<script|<link|<style|<iframe|src=|url\(/i)
    expect([...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => new URL(href ?? '').origin)).toEqual(['https://hub.family.example'])
  })
})
