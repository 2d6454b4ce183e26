import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { totpCode } from '../../src/hub/features/two-step/totp.js'
import { Browserless } from './browserless.js'
import { TOTP_STEP_MS } from './two-step.js'

export const DRILL_ACCOUNT = { email: 'drill@example.org', password: 'quartz-lantern-meadow-7' }

/**
 * A running hub's new account with two-step sign-in on, made over HTTP as a person would: sign-up,
 * the address confirmed by the link mailed to `outbox`, an authenticator app set up. Its signed-in
 * client, the app's secret and when it was confirmed.
 */
export async function signUpWithTwoStep(hubUrl: string, outbox: string): Promise<{ hub: Browserless; secret: string; confirmedAt: number }> {
  const hub = new Browserless(hubUrl)
  expect((await hub.call('POST', '/api/auth/signup', DRILL_ACCOUNT)).status).toBe(200)
  expect((await hub.call('POST', '/api/auth/login', DRILL_ACCOUNT)).status).toBe(200)
  expect((await hub.call('POST', '/api/account/email/verify', { token: await mailedToken(outbox) })).status).toBe(204)
  const setup = await hub.call('POST', '/api/account/totp')
  expect(setup.status).toBe(200)
  const { secret } = (await setup.json()) as { secret: string }
  const confirmedAt = Date.now()
  expect((await hub.call('POST', '/api/account/totp/confirm', { code: totpCode(secret, new Date(confirmedAt)) })).status).toBe(200)
  return { hub, secret, confirmedAt }
}

/**
 * A new sign-in of that account, password then code: its second step's response. The code is of a
 * step after the confirming one, so it is not refused as used already.
 */
export async function signInWithCode(hubUrl: string, secret: string, confirmedAt: number): Promise<Response> {
  const login = await new Browserless(hubUrl).call('POST', '/api/auth/login', DRILL_ACCOUNT)
  const { challenge } = (await login.json()) as { challenge: string }
  const codeTime = new Date(Math.max(Date.now(), confirmedAt + TOTP_STEP_MS))
  return new Browserless(hubUrl).call('POST', '/api/auth/login/second-factor', { challenge, code: totpCode(secret, codeTime) })
}

/** The token of the link in the first mail written to the outbox, once it is there. */
async function mailedToken(outbox: string): Promise<string> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const mail = fs.existsSync(outbox) ? fs.readdirSync(outbox).find((name) => name.endsWith('.txt')) : undefined
    const token = mail && /#token=([A-Za-z0-9_-]+)/.exec(fs.readFileSync(path.join(outbox, mail), 'utf8'))?.[1]
    if (token) return token
    if (Date.now() > deadline) throw new Error(`no mail with a link in ${outbox}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
