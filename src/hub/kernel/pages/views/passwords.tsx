import type { Translate } from '../i18n/index.js'

const PASSWORD_HINT_ID = 'password-hint'

/** A field for a password being chosen, with sign-up's limits, described by `PasswordHint`. */
export function NewPasswordInput({ id, name }: { id: string; name: string }) {
  return <input id={id} name={name} type="password" autocomplete="new-password" required minLength={8} maxLength={128} aria-describedby={PASSWORD_HINT_ID} />
}

/**
 * The account's address in a form that asks for a password but no address (a change of password,
 * a confirmation), so a password manager knows which account's password it is offered or fills.
 * Hidden from view and from assistive technology (the page shows the address where it matters),
 * not `type=hidden`, which password managers skip: Chromium's advice for such forms.
 */
export function AccountUsername({ email }: { email: string }) {
  return <input type="email" name="username" autocomplete="username" value={email} hidden />
}

/** The rules a new password meets, once per page. */
export function PasswordHint({ t }: { t: Translate }) {
  return (
    <p id={PASSWORD_HINT_ID} class="hint">
      {t('form.passwordHint')}
    </p>
  )
}
