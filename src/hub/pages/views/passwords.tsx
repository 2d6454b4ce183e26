import type { Translate } from '../i18n/index.js'

const PASSWORD_HINT_ID = 'password-hint'

/** A field for a password being chosen, with sign-up's limits, described by `PasswordHint`. */
export function NewPasswordInput({ id, name }: { id: string; name: string }) {
  return <input id={id} name={name} type="password" autocomplete="new-password" required minLength={8} maxLength={128} aria-describedby={PASSWORD_HINT_ID} />
}

/** The rules a new password meets, once per page. */
export function PasswordHint({ t }: { t: Translate }) {
  return (
    <p id={PASSWORD_HINT_ID} class="hint">
      {t('form.passwordHint')}
    </p>
  )
}
