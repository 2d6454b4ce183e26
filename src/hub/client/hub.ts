/**
 * The hub pages' one script: it sends the forms to the API as JSON, keeps the session cookie
 * fresh, and keeps every open tab's idea of the session the same. Its text comes from the page
 * (data attributes), in the page's language. Each feature's handlers live in their own module;
 * this one routes the page's forms and buttons to them.
 */

import { accountButtons, accountForms } from './account.js'
import { accountDeletionForms } from './account-deletion.js'
import { applicationButtons } from './applications.js'
import { billingButtons } from './billing.js'
import { askForRecentSignInWith } from './api.js'
import { type ButtonActions, type FormHandlers, withFeedback } from './feedback.js'
import { invitationForms } from './invitations.js'
import { recoveryForms, startMailedLinkPages } from './mailed-links.js'
import { offerPasskeysWhereSupported, passkeyButtons, passkeyForms } from './passkeys.js'
import { privacyButtons, privacyForms } from './privacy.js'
import { confirmRecentSignIn, recentSignInForms } from './recent-sign-in.js'
import { securityButtons, securityForms } from './security.js'
import { setupForms } from './setup.js'
import { sessionButtons, startSessionUpkeep } from './session.js'
import { signInButtons, signInForms } from './sign-in.js'

const formHandlers: FormHandlers = { ...signInForms, ...privacyForms, ...recoveryForms, ...accountForms, ...accountDeletionForms, ...securityForms, ...passkeyForms, ...recentSignInForms, ...setupForms, ...invitationForms }

const buttonActions: ButtonActions = { ...sessionButtons, ...signInButtons, ...securityButtons, ...passkeyButtons, ...privacyButtons, ...accountButtons, ...applicationButtons, ...billingButtons }

document.addEventListener('submit', (event) => {
  const form = event.target
  if (!(form instanceof HTMLFormElement)) return
  const handler = formHandlers[form.dataset.form ?? '']
  if (!handler) return
  event.preventDefault()
  void withFeedback(form, () => handler(form))
})

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null
  const action = buttonActions[button?.dataset.action ?? '']
  if (!button || !action) return
  void withFeedback(button, () => action(button))
})

askForRecentSignInWith(confirmRecentSignIn)
offerPasskeysWhereSupported(document)
startSessionUpkeep()
startMailedLinkPages()
