import type { ComponentChildren } from 'preact'
import { FormMessage, type PageContext } from '../layout.js'
import { AccountUsername } from './passwords.js'

export interface PasswordConfirmedFormProps {
  t: PageContext['t']
  /** The client script's handler for the form (`data-form`). */
  form: string
  labelledBy: string
  /**
   * The API's 401 text for a wrong current password: that 401 is the form's refusal, not a lost
   * session. Undefined where no password is asked.
   */
  wrongPasswordError: string | undefined
  /** The account's address, for password managers, where the form asks for the password. */
  email: string | undefined
  /** The form's other `data-msg-*` texts for the script. */
  messages?: Record<`data-msg-${string}`, string>
  children: ComponentChildren
}

/** A form whose request the current password confirms, with its message line last. */
export function PasswordConfirmedForm({ t, form, labelledBy, wrongPasswordError, email, messages, children }: PasswordConfirmedFormProps) {
  return (
    <form
      class="stacked-form"
      data-form={form}
      aria-labelledby={labelledBy}
      data-wrong-password-error={wrongPasswordError}
      data-msg-invalid-credentials={t('account.wrongPassword')}
      {...messages}
    >
      {email !== undefined && wrongPasswordError !== undefined && <AccountUsername email={email} />}
      {children}
      <FormMessage />
    </form>
  )
}
