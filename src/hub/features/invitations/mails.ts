import { INVITATION_LIFETIME_MS } from '../../kernel/accounts/invitations.js'
import type { Language } from '../../kernel/language/language.js'
import { type RenderedMail, hubLink, renderMail } from '../../kernel/mail/templates.js'
import { invitationMailTranslator } from './mail-messages.js'

/** Where an invitation's link leads: the page that makes the account. */
export const INVITE_PATH = '/invite'

/** The link an invitation carries: the token in the fragment, as for resets, with the address for password managers. */
export function invitationLink(publicUrl: string, token: string, email: string): string {
  return hubLink(publicUrl, INVITE_PATH, token, email)
}

/** The invitation: the link to `/invite` and how long it works. */
export function invitationMail(options: { publicUrl: string; language: Language; email: string; token: string }): RenderedMail {
  const t = invitationMailTranslator(options.language)
  const origin = new URL(options.publicUrl).origin
  return renderMail({
    language: options.language,
    subject: t('invitation.subject'),
    before: [t('invitation.intro', { origin, email: options.email })],
    link: { label: t('invitation.link'), url: invitationLink(options.publicUrl, options.token, options.email) },
    after: [t('invitation.validity', { days: INVITATION_LIFETIME_MS / 86_400_000 }), t('invitation.ignore')],
    footer: t('mail.footer', { origin })
  })
}
