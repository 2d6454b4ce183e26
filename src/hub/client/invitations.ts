/** The page an invitation's link opens: the account of the invited address, then signed in. */

import { startRegistration } from '@simplewebauthn/browser'
import { DEFAULT_LANDING_PATH } from '../kernel/language/next-path.js'
import { ApiError, api } from './api.js'
import { type FormHandlers, field, message } from './feedback.js'
import { forgetLinkToken, linkToken } from './mailed-links.js'
import { type CreationOptions, passkeyCeremony } from './passkeys.js'

/** The element holding the link's token: the page's first form, which both forms use. */
function linkHolder(form: HTMLFormElement): HTMLElement {
  return form.closest('main')?.querySelector<HTMLElement>('[data-link-token]') ?? form
}

/** The link's token, or the page's words for its absence. */
function tokenOf(form: HTMLFormElement): string {
  const token = linkToken(linkHolder(form))
  if (!token) throw new Error(message('msgLinkMissing', form))
  return token
}

/**
 * Runs the calls that use the invitation. A spent, withdrawn or expired invitation is one refusal
 * (403), said in the page's words; the token is then forgotten, as it is once the account is made.
 */
async function usingInvitation(form: HTMLFormElement, calls: () => Promise<void>): Promise<void> {
  try {
    await calls()
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      forgetLinkToken(linkHolder(form))
      throw new Error(error.apiError === form.dataset.linkRefusedError ? message('msgLinkRefused', form) : (error.apiError ?? message('msgLinkRefused', form)))
    }
    throw error
  }
  forgetLinkToken(linkHolder(form))
}

/** Signs up with the invitation (its token and address came in the fragment), then in with the password just chosen, as the sign-up page does. */
async function acceptInvitation(form: HTMLFormElement): Promise<void> {
  const token = tokenOf(form)
  const credentials = { email: field(form, 'email'), password: field(form, 'password') }
  await usingInvitation(form, async () => {
    await api('POST', '/api/auth/signup', { ...credentials, invitation: token, locale: document.documentElement.lang }, { signInForm: true })
  })
  await api('POST', '/api/auth/login', credentials, { signInForm: true })
  location.assign(DEFAULT_LANDING_PATH)
}

/**
 * Makes the invited account with a passkey instead: the options first (a refused invitation is
 * said before the authenticator's prompt), then the prompt, then the account, signed in.
 */
async function acceptInvitationWithPasskey(form: HTMLFormElement): Promise<void> {
  const token = tokenOf(form)
  await usingInvitation(form, async () => {
    const optionsJSON = (await (await api('POST', '/api/invitations/passkey/options', { token }, { signInForm: true })).json()) as CreationOptions
    const response = await passkeyCeremony(form, () => startRegistration({ optionsJSON }))
    await api('POST', '/api/invitations/passkey', { token, response, locale: document.documentElement.lang }, { signInForm: true })
  })
  location.assign(DEFAULT_LANDING_PATH)
}

export const invitationForms: FormHandlers = {
  'accept-invitation': acceptInvitation,
  'accept-invitation-passkey': acceptInvitationWithPasskey
}
