import { render } from 'preact-render-to-string'
import type { Language } from '../pages/language.js'
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
