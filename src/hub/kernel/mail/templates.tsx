import { render } from 'preact-render-to-string'
import type { Language } from '../language/language.js'
import type { Device } from '../http/device.js'
import { MAIL_TOKEN_LIFETIMES_MS } from './mail-tokens.js'
import { mailTranslatorFor } from './i18n.js'

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

/** What a mail says, in order; `renderMail` makes its text and HTML parts. */
export interface MailContent {
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
 * travels in the fragment, which browsers send to no server and put in no Referer; so does the
 * `email` the reset page gives password managers (the address the mail went to).
 */
export function hubLink(publicUrl: string, path: string, token: string, email?: string): string {
  const account = email === undefined ? '' : `&email=${encodeURIComponent(email)}`
  return `${publicUrl}${path}#token=${encodeURIComponent(token)}${account}`
}

/** The password-reset mail: the link to `/reset-password` and how long it stays valid. */
export function passwordResetMail(options: { publicUrl: string; language: Language; email: string; token: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('passwordReset.subject'),
    before: [t('passwordReset.intro', { email: options.email })],
    link: { label: t('passwordReset.link'), url: hubLink(options.publicUrl, '/reset-password', options.token, options.email) },
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
 * A reset that first proved the address also says what it removed (docs/account.md, "Account
 * pre-hijacking").
 */
export function passwordChangedMail(options: { publicUrl: string; language: Language; email: string; firstProofOfAddress?: boolean }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('passwordChanged.subject'),
    before: [t('passwordChanged.intro', { email: options.email }), ...(options.firstProofOfAddress ? [t('passwordChanged.firstProof')] : [])],
    link: { label: t('passwordChanged.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('passwordChanged.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/** Where a sign-in came from, as the new-device notice names it. */
export interface SignInOrigin {
  device: Device
  ip: string
  at: Date
  /** The signing-in browser's language: the notice's, should the account have chosen none. */
  language: Language
}

/**
 * The notice of a sign-in from a device the account had not signed in from before. Accounts keep
 * no time zone, so the time is given in UTC, and says so. Its link leads to where sessions are
 * ended and the password changed; it carries no token.
 */
export function newDeviceMail(options: { publicUrl: string; language: Language; email: string; origin: SignInOrigin }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  const { device, ip, at } = options.origin
  const time = new Intl.DateTimeFormat(options.language, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(at)
  // Joined in the mail's language, as the pages join them.
  const named = device.browser && device.os ? t('newDevice.browserOnSystem', { browser: device.browser, os: device.os }) : (device.browser ?? device.os)
  return renderMail({
    language: options.language,
    subject: t('newDevice.subject'),
    before: [t('newDevice.intro', { email: options.email }), t('newDevice.details', { device: named ?? t('newDevice.unrecognised'), time, ip })],
    link: { label: t('newDevice.link'), url: `${options.publicUrl}/account/security` },
    after: [t('newDevice.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/**
 * The same content as plain text and as HTML, for the kernel's mails and the features'. The HTML is rendered by preact, which escapes every
 * value it interpolates; it has no images, scripts or remote styles, so a mail client fetches nothing.
 */
export function renderMail(content: MailContent): RenderedMail {
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
