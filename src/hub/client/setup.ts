/** The set-up link's page (docs/administration.md, "The first administrator"): its token travels in the fragment, as a mailed link's. */

import { ApiError, api } from './api.js'
import { type FormHandlers, field, message } from './feedback.js'
import { forgetLinkToken, linkToken } from './mailed-links.js'

/**
 * Creates the first administrator (email and password) or, signed in, makes this account it; then
 * on to the login page or the console (`data-done-path`). A refused token is spent: forgotten,
 * and said in the page's words.
 */
async function useSetupLink(form: HTMLFormElement): Promise<string> {
  const token = linkToken(form)
  if (!token) throw new Error(message('msgLinkMissing', form))
  const signedIn = document.body.dataset.signedIn === 'true'
  const body = signedIn ? { token } : { token, email: field(form, 'email'), password: field(form, 'password'), locale: document.documentElement.lang }
  try {
    await api('POST', '/api/setup', body, { signInForm: true })
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      forgetLinkToken(form)
      throw new Error(message('msgLinkRefused', form))
    }
    throw error
  }
  forgetLinkToken(form)
  const done = form.dataset.donePath
  if (done) setTimeout(() => location.assign(done), 1500)
  return message('msgDone', form)
}

export const setupForms: FormHandlers = { setup: useSetupLink }
