import type { Language } from '../../kernel/language/language.js'
import { MAIL_TOKEN_LIFETIMES_MS } from '../../kernel/mail/mail-tokens.js'
import { hubLink, type RenderedMail, renderMail } from '../../kernel/mail/templates.js'
import { accountMailTranslator } from './mail-messages.js'

// The mails the account page sends, rendered with the kernel's layout (`renderMail`); their words are in ./mail-messages.ts.

/** The notice of a password changed by its signed-in owner: as the kernel's `passwordChangedMail`, but that session was kept. */
export function passwordChangedInSessionMail(options: { publicUrl: string; language: Language; email: string }): RenderedMail {
  const t = accountMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('passwordChanged.subject'),
    before: [t('passwordChanged.introInSession', { email: options.email })],
    link: { label: t('passwordChanged.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('passwordChanged.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/** The link that moves an account to a new address, mailed to that address: `/confirm-email`, valid 24 hours. */
export function emailChangeConfirmationMail(options: { publicUrl: string; language: Language; oldEmail: string; newEmail: string; token: string }): RenderedMail {
  const t = accountMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('emailChange.subject'),
    before: [t('emailChange.intro', { oldEmail: options.oldEmail, newEmail: options.newEmail })],
    link: { label: t('emailChange.link'), url: hubLink(options.publicUrl, '/confirm-email', options.token) },
    after: [t('emailChange.validity', { hours: MAIL_TOKEN_LIFETIMES_MS['email-change'] / 3_600_000 }), t('emailChange.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/**
 * The notice to the old address that a move was asked for. It carries no token; its link asks for
 * a password reset, which still reaches the old address until the move is confirmed.
 */
export function emailChangeNoticeMail(options: { publicUrl: string; language: Language; oldEmail: string; newEmail: string }): RenderedMail {
  const t = accountMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('emailChangeNotice.subject'),
    before: [t('emailChangeNotice.intro', { oldEmail: options.oldEmail, newEmail: options.newEmail })],
    link: { label: t('emailChangeNotice.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('emailChangeNotice.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}
