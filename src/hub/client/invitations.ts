/** The page an invitation's link opens: the account of the invited address, then signed in. */

import { DEFAULT_LANDING_PATH } from '../kernel/language/next-path.js'
import { ApiError, api } from './api.js'
import { type FormHandlers, field, message } from './feedback.js'
import { forgetLinkToken, linkToken } from './mailed-links.js'

/**
 * Signs up with the invitation (its token and address came in the fragment), then in with the
 * password just chosen, as the sign-up page does. A spent, withdrawn or expired invitation is one
 * refusal (403), said in the page's words; the token is then forgotten.
 */
async function acceptInvitation(form: HTMLFormElement): Promise<void> {
  const token = linkToken(form)
  if (!token) throw new Error(message('msgLinkMissing', form))
  const credentials = { email: field(form, 'email'), password: field(form, 'password') }
  try {
    await api('POST', '/api/auth/signup', { ...credentials, invitation: token, locale: document.documentElement.lang }, { signInForm: true })
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      forgetLinkToken(form)
      throw new Error(error.apiError === form.dataset.linkRefusedError ? message('msgLinkRefused', form) : (error.apiError ?? message('msgLinkRefused', form)))
    }
    throw error
  }
  forgetLinkToken(form)
  await api('POST', '/api/auth/login', credentials, { signInForm: true })
  location.assign(DEFAULT_LANDING_PATH)
}

export const invitationForms: FormHandlers = {
  'accept-invitation': acceptInvitation
}
