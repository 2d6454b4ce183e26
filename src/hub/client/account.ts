/** The built-in provider's account page: profile, address and password. */

import { api } from './api.js'
import { type ButtonActions, type FormHandlers, field, message } from './feedback.js'

/**
 * The language is sent only when changed: an account whose person chose none shows the page's
 * language, and saving the name alone does not make that a choice. A changed language also goes
 * through the language switch, so this browser follows the account even where the switch's cookie
 * had chosen another one.
 */
async function saveProfile(form: HTMLFormElement): Promise<string | void> {
  const displayName = field(form, 'displayName')
  const localeField = form.querySelector<HTMLSelectElement>('select[name=locale]')
  const storedLocale = [...(localeField?.options ?? [])].find((option) => option.defaultSelected)?.value
  const locale = localeField?.value === storedLocale ? undefined : localeField?.value
  await api('PATCH', '/api/account', { ...(displayName.trim() ? { displayName } : {}), ...(locale ? { locale } : {}) })
  if (locale) {
    location.assign(`/language?${new URLSearchParams({ lang: locale, next: '/account' }).toString()}`)
    return
  }
  return message('msgSaved', form)
}

async function changeEmail(form: HTMLFormElement): Promise<string> {
  const email = field(form, 'email')
  await api('POST', '/api/account/email', { email, currentPassword: field(form, 'currentPassword') }, { formRefusal: form.dataset.wrongPasswordError })
  form.reset()
  return message('msgDone', form).replace('{email}', email)
}

async function changePassword(form: HTMLFormElement): Promise<string> {
  const body = { currentPassword: field(form, 'currentPassword'), newPassword: field(form, 'newPassword') }
  await api('PUT', '/api/account/password', body, { formRefusal: form.dataset.wrongPasswordError })
  form.reset()
  return message('msgDone', form)
}

async function resendVerification(button: HTMLElement): Promise<string> {
  await api('POST', '/api/account/email/verification')
  return message('msgDone', button)
}

export const accountForms: FormHandlers = {
  profile: saveProfile,
  'email-change': changeEmail,
  'password-change': changePassword
}

export const accountButtons: ButtonActions = {
  'resend-verification': resendVerification
}
