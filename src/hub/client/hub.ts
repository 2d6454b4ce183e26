/**
 * The hub pages' one script: it sends the forms to the API as JSON, keeps the session cookie
 * fresh, and keeps every open tab's idea of the session the same. Its text comes from the page
 * (data attributes), in the page's language.
 */

import { CSRF_COOKIE, CSRF_HEADER } from '../cookies.js'
import { DEFAULT_LANDING_PATH, loginPathReturningTo, safeNextPath } from '../pages/next-path.js'

/** The auth cookie lives an hour; renewing it every 45 minutes keeps an open page signed in. */
const REFRESH_INTERVAL_MS = 45 * 60 * 1000
const SESSION_CHANNEL = 'hearth-session'
const SIGNED_OUT = 'signed-out'

const sessionChannel = 'BroadcastChannel' in window ? new BroadcastChannel(SESSION_CHANNEL) : undefined

function message(name: string): string {
  return document.body.dataset[name] ?? ''
}

function csrfToken(): string {
  const entry = document.cookie.split('; ').find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`))
  return entry ? decodeURIComponent(entry.slice(CSRF_COOKIE.length + 1)) : ''
}

function goToLogin(): void {
  const here = location.pathname + location.search
  location.assign(here === '/' || here.startsWith('/login') ? '/login' : loginPathReturningTo(here))
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

/**
 * A call to the hub's API with the CSRF header. A 401 means the session is gone: the tab goes
 * to the login page, except on the sign-in forms themselves, where it means wrong credentials.
 */
async function api(method: string, path: string, body?: unknown, { signInForm = false } = {}): Promise<Response> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { [CSRF_HEADER]: csrfToken(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
  } catch {
    throw new ApiError(0, message('msgNetwork'))
  }
  if (response.status === 401 && !signInForm) {
    goToLogin()
    throw new ApiError(401, '')
  }
  if (!response.ok) throw new ApiError(response.status, await errorText(response))
  return response
}

async function errorText(response: Response): Promise<string> {
  const known: Record<number, string> = { 401: message('msgInvalidCredentials'), 409: message('msgEmailTaken'), 429: message('msgTooMany') }
  const fromStatus = known[response.status]
  if (fromStatus) return fromStatus
  const body = (await response.json().catch(() => ({}))) as { error?: unknown }
  return message('msgGeneric').replace('{message}', typeof body.error === 'string' ? body.error : String(response.status))
}

/** Runs an action for a control, showing progress and any error in the nearest message line. */
async function withFeedback(control: Element, action: () => Promise<void>): Promise<void> {
  const line = control.closest('form, section, main')?.querySelector<HTMLElement>('[data-form-message]')
  const busy = control instanceof HTMLFormElement ? control.querySelector('button[type=submit]') : control
  busy?.setAttribute('disabled', '')
  if (line) line.textContent = message('msgWorking')
  try {
    await action()
    if (line) line.textContent = ''
  } catch (error) {
    if (line) line.textContent = error instanceof Error ? error.message : String(error)
  } finally {
    busy?.removeAttribute('disabled')
  }
}

/** The `next` the server put in the form, checked again by the same rule before the tab goes there. */
function landingPath(form: HTMLFormElement): string {
  return safeNextPath(new FormData(form).get('next')) ?? DEFAULT_LANDING_PATH
}

async function signIn(form: HTMLFormElement, createAccount: boolean): Promise<void> {
  const data = new FormData(form)
  const credentials = { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') }
  if (createAccount) await api('POST', '/api/auth/signup', credentials, { signInForm: true })
  await api('POST', '/api/auth/login', credentials, { signInForm: true })
  location.assign(landingPath(form))
}

/** The PUT body from the form: each field is named by its path in the settings document. */
function settingsPatch(form: HTMLFormElement): Record<string, Record<string, unknown>> {
  const patch: Record<string, Record<string, unknown>> = {}
  for (const field of form.querySelectorAll<HTMLInputElement>('input[name]:not([disabled])')) {
    const [group, key] = field.name.split(/\.(.*)/s)
    if (!group || !key) continue
    if (field.type === 'radio' && !field.checked) continue
    const value = field.type === 'checkbox' ? field.checked : field.type === 'number' ? Number(field.value) : field.value
    patch[group] = { ...patch[group], [key]: value }
  }
  return patch
}

const formHandlers: Record<string, (form: HTMLFormElement) => Promise<void>> = {
  login: (form) => signIn(form, false),
  signup: (form) => signIn(form, true),
  'privacy-settings': async (form) => {
    await api('PUT', '/api/privacy/settings', settingsPatch(form))
    location.reload()
  }
}

async function signOut(): Promise<void> {
  try {
    await api('DELETE', '/api/auth/refresh')
  } catch (error) {
    // A 401 means the session had already ended: the other tabs are signed out all the same.
    if (!(error instanceof ApiError && error.status === 401)) throw error
  }
  sessionChannel?.postMessage(SIGNED_OUT)
  location.assign('/login')
}

/** The SSO token goes in the fragment: never sent to any server, never in a log or a Referer. */
async function openApplication(button: HTMLElement): Promise<void> {
  const { audience, url } = button.dataset
  if (!audience || !url) return
  const response = await api('POST', '/api/auth/generate-token', { audience })
  const { token } = (await response.json()) as { token: string }
  const target = new URL(url)
  target.hash = new URLSearchParams({ sso_token: token }).toString()
  location.assign(target.href)
}

async function recordConsent(button: HTMLElement): Promise<void> {
  const { purpose, granted, version } = button.dataset
  await api('POST', '/api/privacy/consent', { purpose, granted: granted === 'true', version })
  location.reload()
}

/** Fetches the export and hands it to the browser as a download under the server's file name. */
async function downloadExport(button: HTMLElement): Promise<void> {
  const format = button.dataset.format
  const response = await api('POST', '/api/export', { format })
  const disposition = response.headers.get('content-disposition') ?? ''
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `hearth-export.${format}`
  const link = document.createElement('a')
  link.href = URL.createObjectURL(await response.blob())
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}

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

const buttonActions: Record<string, (button: HTMLElement) => Promise<void>> = {
  'sign-out': signOut,
  'end-session': endSession,
  'end-other-sessions': endOtherSessions,
  'open-app': openApplication,
  consent: recordConsent,
  export: downloadExport
}

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

// Another tab signed out: this one is signed out too.
sessionChannel?.addEventListener('message', (event: MessageEvent) => {
  if (event.data === SIGNED_OUT) location.assign('/login')
})

if (document.body.dataset.signedIn === 'true') {
  setInterval(() => void api('POST', '/api/auth/refresh').catch(() => undefined), REFRESH_INTERVAL_MS)
}
