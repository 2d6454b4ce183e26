import { FormMessage, type PageContext } from '../layout.js'
import type { SignInMethodState } from '../shell.js'
import { AccountUsername } from './passwords.js'

export interface RecentSignInDialogProps {
  context: PageContext
  /**
   * The ways the signed-in person can confirm it is them besides the password, as the sign-in
   * methods read them (two-step sign-in's code, a passkey): a method that replaces the password
   * (two-step sign-in on) leaves it out, since the API then refuses the password alone.
   */
  methods: readonly SignInMethodState[]
  /** The API's 401 text for a wrong current password. */
  wrongPasswordError: string
  email: string
  /** False for an account made with a passkey and no password yet: the API refuses a password then, so none is asked. */
  hasPassword: boolean
}

/**
 * The dialog the script opens when a change answers that it needs a recent sign-in. It is a
 * template, inert until then: its fields are not in the page's tab order or its forms' reach.
 * Each way of confirming is its own form, naming the one 401 text that is the form's to show.
 */
export function RecentSignInDialog({ context: { t, language }, methods, wrongPasswordError, email, hasPassword }: RecentSignInDialogProps) {
  const ways = methods.flatMap((method) => (method.recentSignIn ? [method.recentSignIn] : []))
  return (
    <template data-recent-sign-in>
      <dialog class="dialog" aria-labelledby="reauth-heading" aria-describedby="reauth-intro" data-msg-cancelled={t('reauth.cancelled')}>
        <h2 id="reauth-heading">{t('reauth.heading')}</h2>
        <p id="reauth-intro">{t('reauth.intro')}</p>
        {hasPassword && !ways.some((way) => way.replacesPassword) && (
          <form class="stacked-form" data-form="reauthenticate-password" data-refusal={wrongPasswordError} data-msg-invalid-credentials={t('account.wrongPassword')}>
            <AccountUsername email={email} />
            <label for="reauth-password">{t('form.password')}</label>
            <input id="reauth-password" name="password" type="password" autocomplete="current-password" required autofocus />
            <button type="submit">{t('reauth.confirmPassword')}</button>
            <FormMessage />
          </form>
        )}
        {ways.map((way) => way.form(language))}
        <form method="dialog">
          <button type="submit" class="secondary-button">
            {t('reauth.cancel')}
          </button>
        </form>
      </dialog>
    </template>
  )
}
