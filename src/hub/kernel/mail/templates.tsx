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

/** What changed in an account's two-step sign-in; each change is mailed to the account's address. */
export type TwoStepChange = { kind: 'enabled' } | { kind: 'disabled' } | { kind: 'recovery-code-used'; remaining: number }

/** The notice of a two-step sign-in change (issue 18); like the password's, its link asks for a reset and it carries no token. */
export function twoStepNoticeMail(options: { publicUrl: string; language: Language; email: string; change: TwoStepChange }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  const { change, email } = options
  const [subject, intro] =
    change.kind === 'enabled'
      ? [t('twoStepEnabled.subject'), t('twoStepEnabled.intro', { email })]
      : change.kind === 'disabled'
        ? [t('twoStepDisabled.subject'), t('twoStepDisabled.intro', { email })]
        : [t('recoveryCodeUsed.subject'), t('recoveryCodeUsed.intro', { email, remaining: change.remaining })]
  return renderMail({
    language: options.language,
    subject,
    before: [intro],
    link: { label: t('twoStep.link'), url: `${options.publicUrl}/forgot-password` },
    after: [t('twoStep.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/** The confirmation of an account's deletion, sent to its address as the account is erased; it links to sign-up. */
export function accountDeletedMail(options: { publicUrl: string; language: Language; email: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('accountDeleted.subject'),
    before: [t('accountDeleted.intro', { email: options.email }), t('accountDeleted.kept')],
    link: { label: t('accountDeleted.link'), url: `${options.publicUrl}/signup` },
    after: [],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}

/**
 * The notice of a failed payment (issue 22). It links to the billing page, not to Stripe's portal:
 * a portal session is short-lived and must be opened for a signed-in person, which "Manage
 * billing" there does; a portal link in a mail would be a key to the account's billing for
 * whoever reads it, and dead by the time they do.
 */
export function paymentFailedMail(options: { publicUrl: string; language: Language; email: string; total: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('paymentFailed.subject'),
    before: [t('paymentFailed.intro', { email: options.email, total: options.total }), t('paymentFailed.grace')],
    link: { label: t('paymentFailed.link'), url: `${options.publicUrl}/billing` },
    after: [t('paymentFailed.ignore')],
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

/** The notice that a passkey was added; its link leads to where passkeys are listed and removed. */
export function passkeyAddedMail(options: { publicUrl: string; language: Language; email: string; name: string }): RenderedMail {
  const t = mailTranslatorFor(options.language)
  return renderMail({
    language: options.language,
    subject: t('passkeyAdded.subject'),
    before: [t('passkeyAdded.intro', { email: options.email, name: options.name })],
    link: { label: t('passkeyAdded.link'), url: `${options.publicUrl}/account/security` },
    after: [t('passkeyAdded.ignore')],
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
