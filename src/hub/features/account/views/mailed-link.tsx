import { loginPathReturningTo } from '../../../kernel/language/next-path.js'
import { FormMessage, Layout, type PageContext } from '../../../kernel/pages/layout.js'
import { accountTranslator } from '../messages.js'

/** The pages a mailed link opens to prove an inbox: the path, the API the token goes to, and their text. */
export const MAILED_LINK_PAGES = {
  '/verify-email': {
    api: '/api/account/email/verify',
    title: 'verify.title',
    done: 'verify.done',
    signInFirst: 'verify.signInFirst',
    refused: 'link.refused'
  },
  '/confirm-email': {
    api: '/api/account/email/confirm',
    title: 'confirm.title',
    done: 'confirm.done',
    signInFirst: 'confirm.signInFirst',
    refused: 'confirm.refused'
  }
} as const
export type MailedLinkPath = keyof typeof MAILED_LINK_PAGES

/**
 * Posts the link's token (from the fragment, through the script) to an API that needs a session.
 * Signed out, the page asks the person to sign in and come back: the script keeps the token in
 * this tab's sessionStorage meanwhile (see docs/account.md), since the way back loses the fragment.
 */
export function MailedLinkPage({ context, path }: { context: PageContext; path: MailedLinkPath }) {
  const { signedIn } = context
  const t = accountTranslator(context.language)
  const page = MAILED_LINK_PAGES[path]
  return (
    <Layout context={context} title={t(page.title)}>
      <section
        data-link-page={page.api}
        data-link-token={path.slice(1)}
        data-msg-done={t(page.done)}
        data-msg-link-refused={t(page.refused)}
        data-msg-link-missing={t('link.missing')}
        data-msg-email-taken={t('account.emailTaken')}
      >
        {!signedIn && (
          <p data-sign-in-first hidden>
            {t(page.signInFirst)} <a href={loginPathReturningTo(path)}>{t('link.signIn')}</a>
          </p>
        )}
        <FormMessage />
        <p>
          <a href="/account">{t('link.toAccount')}</a>
        </p>
      </section>
    </Layout>
  )
}
