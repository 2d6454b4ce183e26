import { FormMessage, Layout, type PageContext } from '../../../kernel/pages/layout.js'
import { MailOutboxNote } from '../../../kernel/pages/views/mail-outbox-note.js'
import { NewPasswordInput, PasswordHint } from '../../../kernel/pages/views/passwords.js'
import { accountTranslator } from '../messages.js'

/**
 * Asks for a reset link; the answer is the same whether the address has an account or not. With
 * `mailOutbox` (the command that reads the outbox) the link is written there, and the page says so.
 */
export function ForgotPasswordPage({ context, mailOutbox }: { context: PageContext; mailOutbox: string | undefined }) {
  const t = accountTranslator(context.language)
  return (
    <Layout context={context} title={t('forgot.title')}>
      <p>{t('forgot.intro')}</p>
      <MailOutboxNote t={t} command={mailOutbox} />
      <form class="stacked-form" data-form="forgot-password" data-msg-done={mailOutbox === undefined ? t('forgot.sent') : t('forgot.sentToOutbox', { command: mailOutbox })}>
        <label for="email">{t('form.email')}</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <button type="submit">{t('forgot.submit')}</button>
        <FormMessage />
      </form>
      <p>
        <a href="/login">{t('forgot.backToLogin')}</a>
      </p>
    </Layout>
  )
}

/**
 * A new password for the account the mailed link names. The token is in the fragment, which the
 * server never sees: the script takes it from there (see `data-link-token`).
 */
export function ResetPasswordPage({ context, linkRefusedError }: { context: PageContext; linkRefusedError: string }) {
  const t = accountTranslator(context.language)
  return (
    <Layout context={context} title={t('reset.title')}>
      <p>{t('reset.intro')}</p>
      <form
        class="stacked-form"
        data-form="reset-password"
        data-link-token="password-reset"
        data-link-refused-error={linkRefusedError}
        data-msg-link-refused={t('link.refused')}
        data-msg-link-missing={t('link.missing')}
      >
        {/* Filled by the script with the address the link came with, for password managers. */}
        <input type="email" name="username" autocomplete="username" hidden data-link-account />
        <label for="new-password">{t('form.newPassword')}</label>
        <NewPasswordInput id="new-password" name="password" />
        <PasswordHint t={t} />
        <button type="submit">{t('password.change')}</button>
        <FormMessage />
      </form>
      <p>
        {t('reset.linkTrouble')} <a href="/forgot-password">{t('reset.askAgain')}</a>
      </p>
    </Layout>
  )
}
