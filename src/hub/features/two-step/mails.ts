import type { Language } from '../../kernel/language/language.js'
import { type RenderedMail, renderMail } from '../../kernel/mail/templates.js'
import { twoStepMailTranslator } from './mail-messages.js'

// The mails two-step sign-in sends, rendered with the kernel's layout (`renderMail`); their words are in ./mail-messages.ts.

/** What changed in an account's two-step sign-in; each change is mailed to the account's address. */
export type TwoStepChange = { kind: 'enabled' } | { kind: 'disabled' } | { kind: 'removed-by-administrator' } | { kind: 'recovery-code-used'; remaining: number }

/** The notice of a two-step sign-in change (issue 18); like the password's, its link asks for a reset and it carries no token. */
export function twoStepNoticeMail(options: { publicUrl: string; language: Language; email: string; change: TwoStepChange }): RenderedMail {
  const t = twoStepMailTranslator(options.language)
  const { change, email } = options
  const [subject, intro] =
    change.kind === 'enabled'
      ? [t('twoStepEnabled.subject'), t('twoStepEnabled.intro', { email })]
      : change.kind === 'disabled'
        ? [t('twoStepDisabled.subject'), t('twoStepDisabled.intro', { email })]
        : change.kind === 'removed-by-administrator'
          ? [t('twoStepRemoved.subject'), t('twoStepRemoved.intro', { email })]
          : [t('recoveryCodeUsed.subject'), t('recoveryCodeUsed.intro', { email, remaining: change.remaining })]
  return renderMail({
    language: options.language,
    subject,
    before: [intro],
    link: { label: t('twoStep.link'), url: `${options.publicUrl}/forgot-password` },
    after: [change.kind === 'removed-by-administrator' ? t('twoStepRemoved.unexpected') : t('twoStep.ignore')],
    footer: t('mail.footer', { origin: new URL(options.publicUrl).origin })
  })
}
