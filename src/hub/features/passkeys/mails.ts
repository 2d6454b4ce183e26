import type { Language } from '../../kernel/language/language.js'
import { type RenderedMail, renderMail } from '../../kernel/mail/templates.js'
import { passkeysMailTranslator } from './mail-messages.js'

// The mail passkeys send, rendered with the kernel's layout (`renderMail`); their words are in ./mail-messages.ts.

/** The notice that a passkey was added; its link leads to where passkeys are listed and removed. */
export function passkeyAddedMail(options: { publicUrl: string; language: Language; email: string; name: string }): RenderedMail {
  const t = passkeysMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('passkeyAdded.subject'),
    before: [t('passkeyAdded.intro', { email: options.email, name: options.name })],
    link: { label: t('passkeyAdded.link'), url: `${options.publicUrl}/account/security` },
    after: [t('passkeyAdded.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}
