import type { Language } from '../../kernel/language/language.js'
import { type RenderedMail, renderMail } from '../../kernel/mail/templates.js'
import { deletionMailTranslator } from './mail-messages.js'

// The mail deletion sends, rendered with the kernel's layout (`renderMail`); their words are in ./mail-messages.ts.

/** The confirmation of an account's deletion, sent to its address as the account is erased; it links to sign-up. */
export function accountDeletedMail(options: { publicUrl: string; language: Language; email: string }): RenderedMail {
  const t = deletionMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('accountDeleted.subject'),
    before: [t('accountDeleted.intro', { email: options.email }), t('accountDeleted.kept')],
    link: { label: t('accountDeleted.link'), url: `${options.publicUrl}/signup` },
    after: [],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}
