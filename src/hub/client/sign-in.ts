/** The login and sign-up forms, and the second step of a login that asks for one. */

import { DEFAULT_LANDING_PATH, safeNextPath } from '../kernel/language/next-path.js'
import { ApiError, api } from './api.js'
import { type ButtonActions, type FormHandlers, message, showMessage } from './feedback.js'

/** The `next` the server put in the form, checked again by the same rule before the tab goes there. */
export function landingPath(form: HTMLFormElement): string {
  return safeNextPath(new FormData(form).get('next')) ?? DEFAULT_LANDING_PATH
}

/** A login waiting for its second step: the password form is kept to go back to. */
let waitingLogin: { challenge: string; passwordForm: HTMLFormElement } | undefined

/** Puts the page's second-step form of that kind (`code`, `recovery-code`) in place of `current`, focus in its field. */
function showSecondStep(current: HTMLFormElement, kind: string): void {
  const form = document.querySelector<HTMLTemplateElement>(`template[data-second-step="${kind}"]`)?.content.firstElementChild?.cloneNode(true)
  if (!(form instanceof HTMLFormElement)) return
  current.replaceWith(form)
  form.querySelector<HTMLInputElement>('input:not([type=hidden])')?.focus()
}

async function signIn(form: HTMLFormElement, createAccount: boolean): Promise<void> {
  const data = new FormData(form)
  const credentials = { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') }
  // The page's language is the one the person signs up in: the account keeps it as their choice.
  if (createAccount) await api('POST', '/api/auth/signup', { ...credentials, locale: document.documentElement.lang }, { signInForm: true })
  const response = await api('POST', '/api/auth/login', credentials, { signInForm: true })
  const answer = (await response.json()) as { mfaRequired?: boolean; challenge?: string }
  if (answer.mfaRequired && answer.challenge) {
    waitingLogin = { challenge: answer.challenge, passwordForm: form }
    showSecondStep(form, 'code')
    return
  }
  location.assign(landingPath(form))
}

/** An expired or spent challenge needs the password again: back to the password form, which says so. */
async function completeSecondStep(form: HTMLFormElement): Promise<void> {
  if (!waitingLogin) return
  const data = new FormData(form)
  const code = data.get('code')
  const proof = code === null ? { recoveryCode: String(data.get('recoveryCode') ?? '') } : { code: String(code) }
  try {
    await api('POST', '/api/auth/login/second-factor', { challenge: waitingLogin.challenge, ...proof }, { signInForm: true })
  } catch (error) {
    if (!(error instanceof ApiError && error.apiError === form.dataset.expiredError)) throw error
    const { passwordForm } = waitingLogin
    waitingLogin = undefined
    form.replaceWith(passwordForm)
    passwordForm.querySelector<HTMLInputElement>('input[type=password]')?.focus()
    showMessage(passwordForm, message('msgExpired', form), 'error')
    return
  }
  location.assign(landingPath(form))
}

async function switchSecondStep(button: HTMLElement): Promise<void> {
  const form = button.closest('form')
  if (form && button.dataset.to) showSecondStep(form, button.dataset.to)
}

export const signInForms: FormHandlers = {
  login: (form) => signIn(form, false),
  signup: (form) => signIn(form, true),
  'second-factor': completeSecondStep
}

export const signInButtons: ButtonActions = {
  'second-step-switch': switchSecondStep
}
