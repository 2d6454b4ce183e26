import { WRONG_CURRENT_PASSWORD } from '../../sessions/current-password.js'
import { PASSKEY_NOT_ACCEPTED } from '../../../features/passkeys/schemas.js'
import { WRONG_CODE } from '../../../features/two-step/two-step.js'
import type { Translate } from '../i18n/index.js'
import { FormMessage } from '../layout.js'
import { AccountUsername } from './passwords.js'

/**
 * The ways the signed-in person can confirm it is them: with two-step sign-in on (`code`), a code
 * of the app and never the password alone; else the password. A passkey whenever they have one.
 */
export interface RecentSignInMethods {
  code: boolean
  passkey: boolean
}

/**
 * The dialog the script opens when a change answers that it needs a recent sign-in. It is a
 * template, inert until then: its fields are not in the page's tab order or its forms' reach.
 * Each way of confirming is its own form, naming the one 401 text that is the form's to show. With
 * two-step sign-in on, the API refuses the password alone, so the dialog does not offer it.
 */
export function RecentSignInDialog({ t, methods, email }: { t: Translate; methods: RecentSignInMethods; email: string }) {
  return (
    <template data-recent-sign-in>
      <dialog class="dialog" aria-labelledby="reauth-heading" aria-describedby="reauth-intro" data-msg-cancelled={t('reauth.cancelled')}>
        <h2 id="reauth-heading">{t('reauth.heading')}</h2>
        <p id="reauth-intro">{t('reauth.intro')}</p>
        {methods.code ? (
          <form class="stacked-form" data-form="reauthenticate-code" data-refusal={WRONG_CODE} data-msg-invalid-credentials={t('secondStep.wrongCode')}>
            <label for="reauth-code">{t('reauth.code')}</label>
            <input id="reauth-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus />
            <button type="submit">{t('reauth.confirmCode')}</button>
            <FormMessage />
          </form>
        ) : (
          <form class="stacked-form" data-form="reauthenticate-password" data-refusal={WRONG_CURRENT_PASSWORD} data-msg-invalid-credentials={t('account.wrongPassword')}>
            <AccountUsername email={email} />
            <label for="reauth-password">{t('form.password')}</label>
            <input id="reauth-password" name="password" type="password" autocomplete="current-password" required autofocus />
            <button type="submit">{t('reauth.confirmPassword')}</button>
            <FormMessage />
          </form>
        )}
        {methods.passkey && (
          <form
            class="stacked-form"
            data-form="reauthenticate-passkey"
            data-needs-webauthn
            data-refusal={PASSKEY_NOT_ACCEPTED}
            data-msg-invalid-credentials={t('login.passkeyRefused')}
            data-msg-passkey-cancelled={t('passkeys.cancelled')}
          >
            <button type="submit">{t('reauth.passkey')}</button>
            <FormMessage />
          </form>
        )}
        <form method="dialog">
          <button type="submit" class="secondary-button">
            {t('reauth.cancel')}
          </button>
        </form>
      </dialog>
    </template>
  )
}
