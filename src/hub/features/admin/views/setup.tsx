import { FormMessage, Layout, type PageContext } from '../../../kernel/pages/layout.js'
import { NewPasswordInput, PasswordHint } from '../../../kernel/pages/views/passwords.js'
import { adminTranslator } from '../messages.js'

export interface SetupPageProps {
  context: PageContext
  /** The signed-in account's address: then the link promotes it. */
  signedInAs: string | null
  /** Whether the hub has an administrator already: then there is nothing to set up. */
  administered: boolean
  linkRefusedError: string
}

/**
 * The set-up link's page. The token is in the fragment, which the server never sees: the script
 * takes it from there (`data-link-token`) and posts it to POST /api/setup with the form.
 */
export function SetupPage({ context, signedInAs, administered, linkRefusedError }: SetupPageProps) {
  const t = adminTranslator(context.language)
  const common = {
    'data-form': 'setup',
    'data-link-token': 'setup',
    'data-link-refused-error': linkRefusedError,
    'data-msg-link-refused': t('setup.linkRefused'),
    'data-msg-link-missing': t('setup.linkMissing')
  }
  if (administered) {
    return (
      <Layout context={context} title={t('setup.title')}>
        <p role="status">{t('setup.done')}</p>
      </Layout>
    )
  }
  return (
    <Layout context={context} title={t('setup.title')}>
      <p>{t('setup.intro')}</p>
      {signedInAs !== null ? (
        <>
          <p>{t('setup.promoteIntro', { email: signedInAs })}</p>
          <form class="stacked-form" {...common} data-msg-done={t('setup.promoted')} data-done-path="/admin">
            <button type="submit">{t('setup.promote')}</button>
            <FormMessage />
          </form>
          <p>{t('setup.otherAccount')}</p>
        </>
      ) : (
        <>
          <p>{t('setup.createIntro')}</p>
          <form class="stacked-form" {...common} data-msg-done={t('setup.created')} data-done-path="/login?next=%2Fadmin">
            <label for="setup-email">{t('form.email')}</label>
            <input id="setup-email" name="email" type="email" autocomplete="username" required />
            <label for="setup-password">{t('form.password')}</label>
            <NewPasswordInput id="setup-password" name="password" />
            <PasswordHint t={t} />
            <button type="submit">{t('setup.create')}</button>
            <FormMessage />
          </form>
        </>
      )}
    </Layout>
  )
}
