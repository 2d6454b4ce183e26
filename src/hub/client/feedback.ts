/** What the pages show while an action runs and after it: text from the page, in its language. */

import { ApiError } from './api.js'
import { WORDED_REFUSALS } from './refusals.js'

/** A message by its data attribute's name, from the nearest element carrying it: a form may word one its own way. */
export function message(name: string, near: Element = document.body): string {
  for (let element: Element | null = near; element; element = element.parentElement) {
    const text = element instanceof HTMLElement ? element.dataset[name] : undefined
    if (text !== undefined) return text
  }
  return ''
}

export function field(form: HTMLFormElement, name: string): string {
  return String(new FormData(form).get(name) ?? '')
}

const STATUS_MESSAGES: Record<number, string> = { 401: 'msgInvalidCredentials', 409: 'msgEmailTaken', 429: 'msgTooMany' }

/**
 * An error in the words of the page near `control`. A refused mailed link has its own message:
 * any 400 of a link page, or the one 400 text a form names in `data-link-refused-error`. Any other
 * refusal the hub explains (a 4xx with `{error}`) is that explanation, in the page's words where
 * the page has them (`WORDED_REFUSALS`), else as the API says it; only what did not work (the hub
 * unreachable, a 5xx) is "something went wrong".
 */
export function shownError(error: unknown, control: Element): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error)
  if (error.status === 0) return message('msgNetwork', control)
  const refusedLink = message('linkRefusedError', control)
  if (error.status === 400 && message('msgLinkRefused', control) && (!refusedLink || refusedLink === error.apiError)) return message('msgLinkRefused', control)
  const known = STATUS_MESSAGES[error.status]
  if (known) return message(known, control)
  if (error.status < 500 && error.apiError !== undefined) {
    const worded = WORDED_REFUSALS[error.apiError]
    return (worded && message(worded, control)) || error.apiError
  }
  return message('msgGeneric', control).replace('{message}', error.apiError ?? String(error.status))
}

type Outcome = 'working' | 'done' | 'error'

/** Writes into the message line nearest `control`; the outcome lets the stylesheet tell a confirmation from an error. */
export function showMessage(control: Element, text: string, outcome: Outcome): void {
  const line = control.closest('form, section, main')?.querySelector<HTMLElement>('[data-form-message]')
  if (!line) return
  line.textContent = text
  line.dataset.outcome = outcome
}

/**
 * Runs an action for a control, showing progress, then what the action answers (a confirmation)
 * or the error, in the nearest message line.
 */
export async function withFeedback(control: Element, action: () => Promise<string | void>): Promise<void> {
  const busy = control instanceof HTMLFormElement ? control.querySelector('button[type=submit]') : control instanceof HTMLButtonElement ? control : null
  const show = (text: string, outcome: Outcome) => showMessage(control, text, outcome)
  const hadFocus = busy !== null && busy === document.activeElement
  busy?.setAttribute('disabled', '')
  show(message('msgWorking'), 'working')
  try {
    show((await action()) ?? '', 'done')
  } catch (error) {
    show(shownError(error, control), 'error')
  } finally {
    busy?.removeAttribute('disabled')
    // A disabled control loses focus (a dialog may have taken it meanwhile): a keyboard user is put back where they were.
    if (hadFocus && busy instanceof HTMLElement && busy.isConnected && (document.activeElement === document.body || document.activeElement === null)) busy.focus()
  }
}

/** A form's handler, by its `data-form`; what it answers is the confirmation shown. */
export type FormHandlers = Record<string, (form: HTMLFormElement) => Promise<string | void>>
/** A button's action, by its `data-action`. */
export type ButtonActions = Record<string, (button: HTMLElement) => Promise<string | void>>
