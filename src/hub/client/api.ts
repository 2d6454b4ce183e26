/** The pages' calls to the hub's API: the CSRF header, and what a refusal means for the tab. */

import { CSRF_COOKIE, CSRF_HEADER } from '../kernel/http/cookies.js'
import { loginPathReturningTo } from '../kernel/language/next-path.js'

function csrfToken(): string {
  const entry = document.cookie.split('; ').find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`))
  return entry ? decodeURIComponent(entry.slice(CSRF_COOKIE.length + 1)) : ''
}

function goToLogin(): void {
  const here = location.pathname + location.search
  location.assign(here === '/' || here.startsWith('/login') ? '/login' : loginPathReturningTo(here))
}

/** An API refusal (status 0: the hub was not reached) and its body's `{error}`, in the API's words; `shownError` words it for the page. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiError: string | undefined
  ) {
    super(apiError ?? String(status))
  }
}

/** The session is gone and the tab is on its way to the login page: nothing to show. */
export class SessionEnded extends Error {
  constructor() {
    super('')
  }
}

export interface ApiOptions {
  /** On the sign-in forms a 401 means wrong credentials. */
  signInForm?: boolean
  /** The 401 text that is the form's to show: a wrong current password, a wrong code. */
  formRefusal?: string
  /** Set on the one retry after a recent sign-in: a second refusal is not asked about again. */
  afterRecentSignIn?: boolean
  /**
   * Signing out: a 401 (the session had already ended) is what the caller wants, and the caller
   * goes on to the login page itself; a second navigation would cut the first short.
   */
  endingSession?: boolean
}

/** RFC 9470's hint: the session is fine, but the change needs a fresher proof of who holds it. */
function needsRecentSignIn(response: Response): boolean {
  return response.status === 401 && /\berror="insufficient_user_authentication"/.test(response.headers.get('www-authenticate') ?? '')
}

/** Asks the person to confirm it is them; rejects when they do not (or the page cannot ask, with the refusal). */
type RecentSignInPrompt = (refusal: ApiError) => Promise<void>
let confirmRecentSignIn: RecentSignInPrompt = (refusal) => Promise.reject(refusal)

/** The pages' way of asking for a recent sign-in, set once by the script's entry point. */
export function askForRecentSignInWith(prompt: RecentSignInPrompt): void {
  confirmRecentSignIn = prompt
}

/**
 * A call to the hub's API with the CSRF header. A 401 means the session is gone: the tab goes
 * to the login page, except where the options say the 401 is the form's (wrong credentials), or
 * where it asks for a recent sign-in: then the person confirms it is them, and the call is made
 * once more.
 */
export async function api(method: string, path: string, body?: unknown, options: ApiOptions = {}): Promise<Response> {
  const { signInForm = false, formRefusal, afterRecentSignIn = false, endingSession = false } = options
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { [CSRF_HEADER]: csrfToken(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
  } catch {
    throw new ApiError(0, undefined)
  }
  if (response.ok) return response
  const refusal = (await response.json().catch(() => ({}))) as { error?: unknown }
  const apiError = typeof refusal.error === 'string' ? refusal.error : undefined
  if (needsRecentSignIn(response) && !afterRecentSignIn) {
    await confirmRecentSignIn(new ApiError(response.status, apiError))
    return api(method, path, body, { ...options, afterRecentSignIn: true })
  }
  if (response.status === 401 && !signInForm && !(formRefusal !== undefined && apiError === formRefusal) && !needsRecentSignIn(response)) {
    if (!endingSession) goToLogin()
    throw new SessionEnded()
  }
  throw new ApiError(response.status, apiError)
}
