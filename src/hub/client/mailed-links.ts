/** Pages a mailed link opens: the token travels in the fragment, the page hands it to the API. */

import { ApiError, api } from './api.js'
import { type FormHandlers, field, message, showMessage, withFeedback } from './feedback.js'

const LINK_TOKEN_KEY_PREFIX = 'hearth-link-token:'
const LINK_ACCOUNT_KEY_PREFIX = 'hearth-link-account:'

/**
 * The token of the mailed link that opened this page. It arrives in the fragment, which no server
 * sees; it is moved out of the address bar (history, bookmarks, a shared screen) into this tab's
 * sessionStorage, where it survives a trip through the login page and ends with the tab. The
 * address a reset link carries beside it (`email`) goes the same way.
 */
export function linkToken(element: HTMLElement): string | null {
  const kind = element.dataset.linkToken ?? ''
  const key = LINK_TOKEN_KEY_PREFIX + kind
  const fragment = new URLSearchParams(location.hash.slice(1))
  const fromLink = fragment.get('token')
  if (fromLink) {
    sessionStorage.setItem(key, fromLink)
    const account = fragment.get('email')
    if (account) sessionStorage.setItem(LINK_ACCOUNT_KEY_PREFIX + kind, account)
    else sessionStorage.removeItem(LINK_ACCOUNT_KEY_PREFIX + kind)
    history.replaceState(history.state, '', location.pathname + location.search)
  }
  return sessionStorage.getItem(key)
}

export function forgetLinkToken(element: HTMLElement): void {
  sessionStorage.removeItem(LINK_TOKEN_KEY_PREFIX + (element.dataset.linkToken ?? ''))
  sessionStorage.removeItem(LINK_ACCOUNT_KEY_PREFIX + (element.dataset.linkToken ?? ''))
}

/** The link's address in the form's hidden username field, so a password manager files the new password under it. */
function fillLinkAccount(element: HTMLElement): void {
  const field = element.querySelector<HTMLInputElement>('input[data-link-account]')
  const account = sessionStorage.getItem(LINK_ACCOUNT_KEY_PREFIX + (element.dataset.linkToken ?? ''))
  if (field && account) field.value = account
}

/** The same answer whether the address has an account or not, as the API's. */
async function requestPasswordReset(form: HTMLFormElement): Promise<string> {
  const email = field(form, 'email')
  await api('POST', '/api/auth/password-reset', { email })
  return message('msgDone', form).replace('{email}', email)
}

/**
 * Every session of the account ends with the reset, this tab's too: on to the login page, which
 * also says what went when the reset was the first proof of the address (a 200 rather than 204).
 */
async function resetPassword(form: HTMLFormElement): Promise<void> {
  const token = linkToken(form)
  if (!token) throw new Error(message('msgLinkMissing', form))
  const response = await api('POST', '/api/auth/password-reset/confirm', { token, password: field(form, 'password') })
  forgetLinkToken(form)
  location.assign(response.status === 200 ? '/login?notice=password-reset-first-proof' : '/login?notice=password-reset')
}

export const recoveryForms: FormHandlers = {
  'forgot-password': requestPasswordReset,
  'reset-password': resetPassword
}

/**
 * Sends the token of a mailed link to the API the page names; that API needs a session, so a
 * signed-out person is asked to sign in first, and the token waits in this tab meanwhile.
 */
async function useMailedLink(page: HTMLElement): Promise<void> {
  const token = linkToken(page)
  const path = page.dataset.linkPage
  if (!token || !path) return
  if (document.body.dataset.signedIn !== 'true') {
    page.querySelector('[data-sign-in-first]')?.removeAttribute('hidden')
    return
  }
  await withFeedback(page, async () => {
    try {
      await api('POST', path, { token })
    } catch (error) {
      // Refused links are spent; one kept for the way back through the login page is not.
      if (error instanceof ApiError && error.status !== 0) forgetLinkToken(page)
      throw error
    }
    forgetLinkToken(page)
    return message('msgDone', page)
  })
}

/** Takes the token out of the address bar, and on a page that acts on its own link, uses it. */
export function startMailedLinkPages(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-link-token]')) {
    if (!linkToken(element)) showMessage(element, message('msgLinkMissing', element), 'error')
    fillLinkAccount(element)
  }
  const mailedLinkPage = document.querySelector<HTMLElement>('[data-link-page]')
  if (mailedLinkPage) void useMailedLink(mailedLinkPage)
}
