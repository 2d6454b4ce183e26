import type { Language } from '../../kernel/language/language.js'
import { type RenderedMail, renderMail } from '../../kernel/mail/templates.js'
import { billingMailTranslator } from './mail-messages.js'

// The mail billing sends, rendered with the kernel's layout (`renderMail`); their words are in ./mail-messages.ts.

/**
 * The notice of a failed payment (issue 22). It links to the billing page, not to Stripe's portal:
 * a portal session is short-lived and must be opened for a signed-in person, which "Manage
 * billing" there does; a portal link in a mail would be a key to the account's billing for
 * whoever reads it, and dead by the time they do.
 */
export function paymentFailedMail(options: { publicUrl: string; language: Language; email: string; total: string }): RenderedMail {
  const t = billingMailTranslator(options.language)
  return renderMail({
    language: options.language,
    subject: t('paymentFailed.subject'),
    before: [t('paymentFailed.intro', { email: options.email, total: options.total }), t('paymentFailed.grace')],
    link: { label: t('paymentFailed.link'), url: `${options.publicUrl}/billing` },
    after: [t('paymentFailed.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}
