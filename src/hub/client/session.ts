/** The tab's session: signing out (every open tab with it), keeping the cookie fresh, opening applications. */

import { loginPathReturningTo } from '../kernel/language/next-path.js'
import { SessionEnded, api } from './api.js'
import type { ButtonActions } from './feedback.js'

/** The auth cookie lives an hour; renewing it every 45 minutes keeps an open page signed in. */
const REFRESH_INTERVAL_MS = 45 * 60 * 1000
const SESSION_CHANNEL = 'hearth-session'
const SIGNED_OUT = 'signed-out'
const ACCOUNT_DELETED = 'account-deleted'
const DELETED_NOTICE_PATH = '/login?notice=account-deleted'

const sessionChannel = 'BroadcastChannel' in window ? new BroadcastChannel(SESSION_CHANNEL) : undefined

async function endSession(): Promise<void> {
  try {
    await api('DELETE', '/api/auth/refresh', undefined, { endingSession: true })
  } catch (error) {
    // A 401 means the session had already ended: the other tabs are signed out all the same.
    if (!(error instanceof SessionEnded)) throw error
  }
  sessionChannel?.postMessage(SIGNED_OUT)
}

async function signOut(): Promise<void> {
  await endSession()
  location.assign('/login')
}

/** For a change that takes a fresh sign-in (deleting the account under an external provider): back here after it. */
async function signInAgain(): Promise<void> {
  await endSession()
  location.assign(loginPathReturningTo(location.pathname))
}

/** The account is gone, and with it every session: this tab and the others go to the login page, which says so. */
export function announceAccountDeleted(): void {
  sessionChannel?.postMessage(ACCOUNT_DELETED)
  location.assign(DELETED_NOTICE_PATH)
}

export const sessionButtons: ButtonActions = {
  'sign-out': signOut,
  'sign-in-again': signInAgain
}

export function startSessionUpkeep(): void {
  // Another tab signed out: this one is signed out too.
  sessionChannel?.addEventListener('message', (event: MessageEvent) => {
    if (event.data === SIGNED_OUT) location.assign('/login')
    if (event.data === ACCOUNT_DELETED) location.assign(DELETED_NOTICE_PATH)
  })
  if (document.body.dataset.signedIn === 'true') {
    setInterval(() => void api('POST', '/api/auth/refresh').catch(() => undefined), REFRESH_INTERVAL_MS)
  }
}
