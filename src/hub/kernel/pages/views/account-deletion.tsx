import type { PageContext } from '../layout.js'
import { PasswordConfirmedForm } from './password-confirmed-form.js'

export interface AccountDeletionSectionProps {
  context: PageContext
  /**
   * The built-in provider's proof, the password, with the API's 401 text for a wrong one (that 401
   * is the form's, not a lost session); a recent sign-in is asked for besides, through the page's
   * "confirm it is you" dialog, as for the other sensitive changes. Undefined under an external
   * provider, where the proof is a sign-in less than 10 minutes old (src/hub/features/deletion/routes.ts).
   */
  wrongPasswordError: string | undefined
  /** The account's address, for password managers beside the password field. */
  email: string | undefined
}

/**
 * "Delete my account": what goes and what stays, said before the person decides; the script sends
 * DELETE /api/account and, once it is done, takes every open tab to the login page.
 */
export function AccountDeletionSection({ context: { t }, wrongPasswordError, email }: AccountDeletionSectionProps) {
  return (
    <section aria-labelledby="account-deletion-heading">
      <h2 id="account-deletion-heading">{t('deletion.heading')}</h2>
      <p>{t('deletion.erased')}</p>
      <p>{t('deletion.kept')}</p>
      <PasswordConfirmedForm
        t={t}
        form="account-deletion"
        labelledBy="account-deletion-heading"
        wrongPasswordError={wrongPasswordError}
        email={email}
        messages={{ 'data-msg-sign-in-again': t('deletion.signInAgain') }}
      >
        {wrongPasswordError === undefined ? (
          <p class="hint">{t('deletion.recentSignIn')}</p>
        ) : (
          <>
            <label for="deletion-password">{t('account.currentPassword')}</label>
            <input id="deletion-password" name="password" type="password" autocomplete="current-password" required />
          </>
        )}
        <button type="submit" class="danger-button">
          {t('deletion.submit')}
        </button>
      </PasswordConfirmedForm>
      {wrongPasswordError === undefined && (
        <p>
          <button type="button" class="link-button" data-action="sign-in-again">
            {t('deletion.signInAgainLink')}
          </button>
        </p>
      )}
    </section>
  )
}
