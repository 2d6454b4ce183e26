/** "Delete my account": the one call, then every open tab goes to the login page, which says why. */

import { ApiError, api } from './api.js'
import { type FormHandlers, field, message } from './feedback.js'
import { announceAccountDeleted } from './session.js'

/**
 * With the built-in provider the form holds the password, and the API's 401 for a wrong one is the
 * form's to show; its 401 asking for a recent sign-in opens the "confirm it is you" dialog (`api`),
 * and the deletion is sent once more when confirmed. Under an external provider a 403 asks for a
 * fresher sign-in, which the page words.
 */
async function deleteAccount(form: HTMLFormElement): Promise<void> {
  const { wrongPasswordError } = form.dataset
  const body = wrongPasswordError === undefined ? {} : { password: field(form, 'password') }
  try {
    await api('DELETE', '/api/account', body, { formRefusal: wrongPasswordError })
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) throw new Error(message('msgSignInAgain', form))
    throw error
  }
  announceAccountDeleted()
}

export const accountDeletionForms: FormHandlers = {
  'account-deletion': deleteAccount
}
