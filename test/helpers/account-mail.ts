import type { Kysely } from 'kysely'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, expect, vi } from 'vitest'
import { createMailTokens } from '../../src/hub/kernel/mail/mail-tokens.js'
import type { Database } from '../../src/shared/database/schema.js'
import type { App } from '../../src/shared/http/server.js'
import { type SignedIn, cookieHeader, cookiesSetBy, signUpAndLogIn, uniqueEmail } from './hub-app.js'
import { startSmtpServer } from './smtp-server.js'

/** A real SMTP server for the suite around the call; read `smtp.server` inside the tests. */
export function useSmtpServer() {
  const smtp = {} as { server: Awaited<ReturnType<typeof startSmtpServer>> }
  beforeAll(async () => {
    smtp.server = await startSmtpServer()
  })
  afterAll(async () => {
    await smtp.server?.close()
  })
  return smtp
}

/** Waits until `count` mails to `address` have arrived; answers them, oldest first. */
export async function mailsTo(server: Awaited<ReturnType<typeof startSmtpServer>>, address: string, count = 1): Promise<ParsedMail[]> {
  const to = () => server.received.filter((mail) => [mail.to].flat().some((field) => field?.value.some((entry) => entry.address === address)))
  await vi.waitFor(
    () => {
      if (to().length < count) throw new Error(`${to().length} of ${count} mails to ${address} received`)
    },
    { timeout: 10_000, interval: 20 }
  )
  return to()
}

/** The token of the link to `path` in a mail's text part. */
export function linkToken(mail: ParsedMail | undefined, path: string): string {
  const match = new RegExp(`${path}#token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? '')
  if (!match?.[1]) throw new Error(`no ${path} link in the mail`)
  return match[1]
}

/** The CSRF headers of a browser holding no session, as a page of the hub would give it. */
export async function anonymousHeaders(app: App): Promise<Record<string, string>> {
  const response = await app.inject({ method: 'GET', url: '/api/health' })
  const token = cookiesSetBy(response)['service-csrf-token']?.value ?? ''
  if (!token) throw new Error('no CSRF cookie')
  return { cookie: cookieHeader({ 'service-csrf-token': token }), 'x-csrf-token': token }
}

/**
 * Confirms a signed-in person's address as opening the sign-up mail's link does: a verification
 * token (issued here, as the sign-up's mail would carry it, so no mail server is needed) posted
 * to the API in their session. `now` is the hub's clock when the test moves it.
 */
export async function confirmAddress(app: App, db: Kysely<Database>, user: Pick<SignedIn, 'userId' | 'headers'>, now = new Date()): Promise<void> {
  const token = await createMailTokens(db).issue(user.userId, 'email-verification', now)
  const response = await app.inject({ method: 'POST', url: '/api/account/email/verify', headers: user.headers, payload: { token } })
  expect(response.statusCode, response.body).toBe(204)
}

/** A fresh account whose address is confirmed, signed in: one that may add passkeys and two-step sign-in. `now` is the hub's clock. */
export async function signUpConfirmedAndLogIn(app: App, db: Kysely<Database>, now: Date, email = uniqueEmail(), ip = '10.0.0.1'): Promise<SignedIn> {
  const user = await signUpAndLogIn(app, email, ip)
  await confirmAddress(app, db, user, now)
  return user
}
