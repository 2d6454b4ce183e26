import { loginPathReturningTo } from '../../kernel/language/next-path.js'
import type { HubPage, PageSection } from '../../kernel/pages/shell.js'
import { WRONG_CURRENT_PASSWORD } from '../../kernel/sessions/current-password.js'
import { languageOfAccount } from '../../kernel/language/account-language.js'
import { INVALID_RESET_LINK } from './password-reset.js'
import type { OwnAccountRepository } from './repository.js'
import { AccountPage } from './views/account.js'
import { MAILED_LINK_PAGES, MailedLinkPage } from './views/mailed-link.js'
import { ForgotPasswordPage, ResetPasswordPage } from './views/recovery.js'

export interface AccountPagesOptions {
  ownAccount: Pick<OwnAccountRepository, 'profileOf'>
  /** What other features add to the account page after the password (the applications signed in with the hub). */
  sections: readonly PageSection[]
}

/**
 * The built-in provider's account page, and the pages a mailed link or the login page opens,
 * signed in or not. Under an external provider, which keeps its people's passwords, addresses and
 * language, none is served (404).
 */
export function accountPages({ ownAccount, sections }: AccountPagesOptions): HubPage[] {
  return [
    {
      path: '/account',
      signedIn: true,
      async render({ request, reply, session, shell }) {
        const [profile, signInMethods, shownSections] = await Promise.all([
          ownAccount.profileOf(session.userId),
          shell.signInMethodsOf(session.userId),
          Promise.all(sections.map((section) => section(session, reply)))
        ])
        // A session outlives no account, but a read can race the account's deletion.
        if (!profile) return reply.redirect(loginPathReturningTo(request.url), 303)
        const context = await shell.contextOf(request, reply, session, profile.locale)
        return (
          <AccountPage
            context={context}
            profile={{ ...profile, locale: profile.locale === null ? null : languageOfAccount(profile.locale) }}
            wrongPasswordError={WRONG_CURRENT_PASSWORD}
            signInMethods={signInMethods}
            sections={shownSections.map((render) => render(context))}
            mailOutbox={shell.mailOutbox}
            userId={session.userId}
          />
        )
      }
    },
    {
      path: '/forgot-password',
      signedIn: false,
      async render({ request, reply, session, shell }) {
        return <ForgotPasswordPage context={await shell.contextOf(request, reply, session)} mailOutbox={shell.mailOutbox} />
      }
    },
    {
      path: '/reset-password',
      signedIn: false,
      async render({ request, reply, session, shell }) {
        return <ResetPasswordPage context={await shell.contextOf(request, reply, session)} linkRefusedError={INVALID_RESET_LINK} />
      }
    },
    ...(Object.keys(MAILED_LINK_PAGES) as (keyof typeof MAILED_LINK_PAGES)[]).map(
      (path): HubPage => ({
        path,
        signedIn: false,
        async render({ request, reply, session, shell }) {
          return <MailedLinkPage context={await shell.contextOf(request, reply, session)} path={path} />
        }
      })
    )
  ]
}
