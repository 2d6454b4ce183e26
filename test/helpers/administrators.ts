import type { Kysely } from 'kysely'
import type { Database } from '../../src/shared/database/schema.js'
import type { App } from '../../src/shared/http/server.js'
import { type SignedIn, cookieHeader, signUpAndLogIn, uniqueEmail } from './hub-app.js'

/** Makes an existing account an administrator, as `users:promote` would. */
export async function makeAdministrator(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute()
}

/** A fresh administrator, signed in a moment ago (so recently enough for sensitive changes). */
export async function signUpAdministrator(app: App, db: Kysely<Database>, email = uniqueEmail('admin')): Promise<SignedIn> {
  const admin = await signUpAndLogIn(app, email)
  await makeAdministrator(db, admin.userId)
  return admin
}

/** Ages every session's last proof past the 10 minutes a sensitive change allows. */
export async function forgetRecentSignIns(db: Kysely<Database>): Promise<void> {
  await db.updateTable('sessions').set({ authenticatedAt: '2000-01-01T00:00:00.000Z' }).execute()
}

/**
 * Posts a console form as a browser without script does: urlencoded fields, the session's cookies
 * and its CSRF token in the `_csrf` field (`csrf: 'form'` routes).
 */
export function postForm(app: App, user: SignedIn, url: string, fields: Record<string, string | string[]>, csrf = user.csrfToken) {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries({ ...fields, _csrf: csrf })) for (const one of [value].flat()) body.append(name, one)
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: cookieHeader({ 'service-auth-token': user.authCookie, 'service-csrf-token': user.csrfToken }), 'content-type': 'application/x-www-form-urlencoded' },
    payload: body.toString()
  })
}
