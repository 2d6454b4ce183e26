/**
 * The recent-sign-in dialog: a change that answers "confirm it is you" opens it, the person
 * confirms with their password, a code or a passkey, and the change is tried once more.
 */

import { type ApiError, api } from './api.js'
import { type FormHandlers, field } from './feedback.js'
import { offerPasskeysWhereSupported, passkeyAssertion } from './passkeys.js'

const CONFIRMED = 'confirmed'

/** One dialog however many changes ask at once; each is retried when it closes confirmed. */
let openDialog: Promise<void> | undefined

/**
 * Opens the page's dialog (a template until now, so its fields were nowhere in the page) and
 * settles when it closes: confirmed, or rejected with the page's words for a change not made.
 * Focus goes into the dialog, and back where it was when the dialog closes.
 */
export function confirmRecentSignIn(refusal: ApiError): Promise<void> {
  if (openDialog) return openDialog
  const dialog = document.querySelector<HTMLTemplateElement>('template[data-recent-sign-in]')?.content.firstElementChild?.cloneNode(true)
  if (!(dialog instanceof HTMLDialogElement)) return Promise.reject(refusal)
  openDialog = new Promise<void>((resolve, reject) => {
    const returnFocusTo = document.activeElement
    offerPasskeysWhereSupported(dialog)
    document.body.append(dialog)
    dialog.addEventListener(
      'close',
      () => {
        openDialog = undefined
        dialog.remove()
        if (returnFocusTo instanceof HTMLElement) returnFocusTo.focus()
        if (dialog.returnValue === CONFIRMED) resolve()
        else reject(new Error(dialog.dataset.msgCancelled ?? refusal.message))
      },
      { once: true }
    )
    dialog.showModal()
  })
  return openDialog
}

/** A wrong password or code is the form's to show (its `data-refusal`), not a lost session. */
async function reauthenticate(form: HTMLFormElement, proof: Record<string, unknown>): Promise<void> {
  await api('POST', '/api/auth/reauthenticate', proof, { formRefusal: form.dataset.refusal })
  form.closest('dialog')?.close(CONFIRMED)
}

export const recentSignInForms: FormHandlers = {
  'reauthenticate-password': (form) => reauthenticate(form, { password: field(form, 'password') }),
  'reauthenticate-code': (form) => reauthenticate(form, { code: field(form, 'code') }),
  'reauthenticate-passkey': async (form) => reauthenticate(form, { passkey: await passkeyAssertion(form) })
}
