/** The security settings: the account's sessions, and two-step sign-in with its recovery codes. */

import { ApiError, api } from './api.js'
import { saveFile } from './download.js'
import { type ButtonActions, type FormHandlers, field, message, showMessage } from './feedback.js'

/** Ends another of the person's sessions by its handle; the reloaded list no longer shows it. */
async function endSession(button: HTMLElement): Promise<void> {
  const handle = button.dataset.sessionId
  if (!handle) return
  await api('DELETE', `/api/account/sessions/${encodeURIComponent(handle)}`)
  location.reload()
}

async function endOtherSessions(): Promise<void> {
  await api('DELETE', '/api/account/sessions')
  location.reload()
}

function twoStepSection(control: Element): HTMLElement {
  const section = control.closest<HTMLElement>('section[data-two-step]')
  if (!section) throw new Error('two-step control outside its section')
  return section
}

/**
 * Shows one of the section's templates (the set-up, the recovery codes) in place of any shown
 * before, and moves focus to it so a screen reader reads it out.
 */
function showPanel(section: HTMLElement, template: string): HTMLElement {
  const panel = section.querySelector<HTMLTemplateElement>(`template[${template}]`)?.content.firstElementChild?.cloneNode(true)
  if (!(panel instanceof HTMLElement)) throw new Error(`no ${template} template`)
  section.querySelector('.panel')?.remove()
  section.querySelector('template')?.before(panel)
  panel.focus()
  return panel
}

/**
 * The QR code is the API's SVG document shown as an image: an image runs no script and reaches
 * nothing, so the markup needs no trust, and the CSP's `img-src` allows `data:`.
 */
async function beginTotp(button: HTMLElement): Promise<void> {
  const section = twoStepSection(button)
  const { secret, qrSvg } = (await (await api('POST', '/api/account/totp')).json()) as { secret: string; qrSvg: string }
  const panel = showPanel(section, 'data-totp-setup')
  const image = panel.querySelector<HTMLImageElement>('img[data-totp-qr]')
  if (image) image.src = `data:image/svg+xml,${encodeURIComponent(qrSvg)}`
  const secretText = panel.querySelector('[data-totp-secret]')
  if (secretText) secretText.textContent = secret
  button.hidden = true
}

/** The codes are shown once, in the page only: the server never renders them into a document. */
function showRecoveryCodes(section: HTMLElement, codes: string[]): void {
  const list = showPanel(section, 'data-recovery-codes').querySelector('[data-recovery-code-list]')
  for (const code of codes) {
    const item = document.createElement('li')
    item.textContent = code
    list?.append(item)
  }
}

async function confirmTotp(form: HTMLFormElement): Promise<void> {
  const section = twoStepSection(form)
  let codes: string[]
  try {
    const response = await api('POST', '/api/account/totp/confirm', { code: field(form, 'code') })
    codes = ((await response.json()) as { recoveryCodes: string[] }).recoveryCodes
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw new Error(message('msgWrongCode', form))
    throw error
  }
  showTwoStepOn(section)
  showRecoveryCodes(section, codes)
  showMessage(section, message('msgEnabled', section), 'done')
}

/**
 * The section's state as it now is: the "off" sentence and its set-up button give way to the
 * "on" sentence. The buttons of the "on" state come with the page the codes panel's link reloads.
 */
function showTwoStepOn(section: HTMLElement): void {
  section.dataset.twoStep = 'on'
  const state = section.querySelector('[data-two-step-state]')
  const sentence = document.createElement('p')
  sentence.textContent = message('msgOn', section)
  state?.replaceChildren(sentence)
}

async function regenerateRecoveryCodes(button: HTMLElement): Promise<void> {
  const response = await api('POST', '/api/account/recovery-codes')
  showRecoveryCodes(twoStepSection(button), ((await response.json()) as { recoveryCodes: string[] }).recoveryCodes)
}

async function disableTotp(): Promise<void> {
  await api('DELETE', '/api/account/totp')
  location.reload()
}

function downloadRecoveryCodes(button: HTMLElement): Promise<void> {
  const codes = [...(button.closest('.panel')?.querySelectorAll('[data-recovery-code-list] li') ?? [])].map((item) => item.textContent ?? '')
  const text = [button.dataset.fileHeading ?? '', '', ...codes, ''].join('\n')
  saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'hearth-recovery-codes.txt')
  return Promise.resolve()
}

export const securityForms: FormHandlers = {
  'totp-confirm': confirmTotp
}

export const securityButtons: ButtonActions = {
  'end-session': endSession,
  'end-other-sessions': endOtherSessions,
  'totp-begin': beginTotp,
  'totp-disable': disableTotp,
  'recovery-codes-regenerate': regenerateRecoveryCodes,
  'download-recovery-codes': downloadRecoveryCodes
}
