import { render } from 'preact-render-to-string'
import type { Language } from '../pages/language.js'
import type { Device } from '../sessions/device.js'
import { MAIL_TOKEN_LIFETIMES_MS } from './mail-tokens.js'
import { mailTranslatorFor } from './i18n.js'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

interface MailContent {
  language: Language
  subject: string
  /** Paragraphs before the link. */
  before: string[]
  link: { label: string; url: string }
  /** Paragraphs after it. */
  after: string[]
  footer: string
}

/**
 * A link into the hub, built from HUB_PUBLIC_URL alone (never from a request's Host). A token
 * travels in the fragment, which browsers send to no server and put in no Referer.
 */
export function hubLink(publicUrl: string, path: string, token: string): string {
  return `${publicUrl}${path}#token=${encodeURIComponent(token)}`
}

/** The password-reset mail: the link to `/reset-password` and how long it stays valid. */
export function passwordResetMail(options: { publicUrl: string; language: Language; email: string; token: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('passwordReset.subject'),
    before: [t('passwordReset.intro', { email: options.email })],
    link: { label: t('passwordReset.link'), url: hubLink(options.publicUrl, '/reset-password', options.token) },
    after: [t('passwordReset.validity', { minutes: MAIL_TOKEN_LIFETIMES_MS['password-reset'] / 60_000 }), t('passwordReset.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/** The email-verification mail: the link to `/verify-email` and how long it stays valid. */
export function emailVerificationMail(options: { publicUrl: string; language: Language; email: string; token: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('emailVerification.subject'),
    before: [t('emailVerification.intro', { email: options.email })],
    link: { label: t('emailVerification.link'), url: hubLink(options.publicUrl, '/verify-email', options.token) },
    after: [t('emailVerification.validity', { hours: MAIL_TOKEN_LIFETIMES_MS['email-verification'] / 3_600_000 }), t('emailVerification.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/**
 * The notice that the password was changed; its link asks for a new reset, the way back for an
 * owner whose password someone else changed. It carries no token: it grants nothing by itself.
 */
export function passwordChangedMail(options: { publicUrl: string; language: Language; email: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('passwordChanged.subject'),
    before: [t('passwordChanged.intro', { email: options.email })],
    link: { label: t('passwordChanged.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('passwordChanged.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/** The notice of a password changed by its signed-in owner: as above, but that session was kept. */
export function passwordChangedInSessionMail(options: { publicUrl: string; language: Language; email: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
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
  const t = mailTranslatorFor(options.language)
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
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('emailChangeNotice.subject'),
    before: [t('emailChangeNotice.intro', { oldEmail: options.oldEmail, newEmail: options.newEmail })],
    link: { label: t('emailChangeNotice.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('emailChangeNotice.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/**
 * The same content as plain text and as HTML. The HTML is rendered by preact, which escapes every
 * value it interpolates; it has no images, scripts or remote styles, so a mail client fetches nothing.
 */
function renderMail(content: MailContent): RenderedMail {
  const text = [...content.before, `${content.link.label}:\n${content.link.url}`, ...content.after, `--\n${content.footer}`].join('\n\n')
  const html = `<!doctype html>\n${render(
    <html lang={content.language}>
      <head>
        <meta charset="utf-8" />
        <title>{content.subject}</title>
      </head>
      <body>
        {content.before.map((paragraph) => (
          <p>{paragraph}</p>
        ))}
        <p>
          <a href={content.link.url}>{content.link.label}</a>
        </p>
        {content.after.map((paragraph) => (
          <p>{paragraph}</p>
        ))}
        <p>
          <small>{content.footer}</small>
        </p>
      </body>
    </html>
  )}`
  return { subject: content.subject, text, html }
}
