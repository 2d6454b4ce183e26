/** Passkeys: signing in with one, adding, renaming and removing them, and confirming a recent sign-in. */

import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { api } from './api.js'
import { type ButtonActions, type FormHandlers, field, message } from './feedback.js'
import { landingPath } from './sign-in.js'

type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON']
export type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON']

/**
 * The browser's passkey prompt. Whatever it throws (closed, timed out, no matching passkey, a
 * refused origin) leaves nothing changed, and is said so in the words of the page near `control`.
 */
export async function passkeyCeremony<T>(control: Element, ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony()
  } catch {
    throw new Error(message('msgPasskeyCancelled', control))
  }
}

/** An assertion by one of the passkeys the browser holds for the hub, over a fresh challenge of the hub's. */
export async function passkeyAssertion(control: Element): Promise<unknown> {
  const optionsJSON = (await (await api('POST', '/api/auth/passkey/options', undefined, { signInForm: true })).json()) as RequestOptions
  return passkeyCeremony(control, () => startAuthentication({ optionsJSON }))
}

async function signInWithPasskey(form: HTMLFormElement): Promise<void> {
  await api('POST', '/api/auth/passkey', { response: await passkeyAssertion(form) }, { signInForm: true })
  location.assign(landingPath(form))
}

/** The options call comes first, so a missing recent sign-in is asked for before the authenticator's prompt. */
async function addPasskey(form: HTMLFormElement): Promise<void> {
  const optionsJSON = (await (await api('POST', '/api/account/passkeys/options')).json()) as CreationOptions
  const response = await passkeyCeremony(form, () => startRegistration({ optionsJSON }))
  const name = field(form, 'name').trim()
  await api('POST', '/api/account/passkeys', { response, ...(name ? { name } : {}) })
  location.reload()
}

async function renamePasskey(form: HTMLFormElement): Promise<void> {
  await api('PATCH', `/api/account/passkeys/${encodeURIComponent(form.dataset.passkeyId ?? '')}`, { name: field(form, 'name') })
  location.reload()
}

async function removePasskey(button: HTMLElement): Promise<void> {
  await api('DELETE', `/api/account/passkeys/${encodeURIComponent(button.dataset.passkeyId ?? '')}`)
  location.reload()
}

export const passkeyForms: FormHandlers = {
  'passkey-sign-in': signInWithPasskey,
  'passkey-add': addPasskey,
  'passkey-rename': renamePasskey
}

export const passkeyButtons: ButtonActions = {
  'passkey-remove': removePasskey
}

/** Offers passkeys only where the browser has WebAuthn, and says so where the page would have offered to add one. */
export function offerPasskeysWhereSupported(root: ParentNode): void {
  if (browserSupportsWebAuthn()) return
  for (const element of root.querySelectorAll<HTMLElement>('[data-needs-webauthn]')) element.hidden = true
  for (const element of root.querySelectorAll<HTMLElement>('[data-webauthn-unsupported]')) element.hidden = false
}
