import { expect } from 'vitest'
import { totpCode } from '../../src/hub/features/two-step/totp.js'
import type { App } from '../../src/shared/http/server.js'
import { GOOD_PASSWORD, type SignedIn } from './hub-app.js'

export const TOTP_STEP_MS = 30_000

/** Sets up and confirms an authenticator app for a signed-in person, as the app would; its secret and recovery codes. */
export async function turnOnTwoStep(app: App, user: SignedIn, now: Date): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await app.inject({ method: 'POST', url: '/api/account/totp', headers: user.headers })
  expect(setup.statusCode, setup.body).toBe(200)
  const { secret } = setup.json<{ secret: string }>()
  const confirmed = await app.inject({ method: 'POST', url: '/api/account/totp/confirm', headers: user.headers, payload: { code: totpCode(secret, now) } })
  expect(confirmed.statusCode, confirmed.body).toBe(200)
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes }
}

/** The password step of a login of an account with two-step sign-in on: its challenge. */
export async function passwordStep(app: App, email: string, ip = '10.0.0.1'): Promise<string> {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: GOOD_PASSWORD }, remoteAddress: ip })
  expect(login.statusCode, login.body).toBe(200)
  const body = login.json<{ mfaRequired?: boolean; challenge?: string }>()
  expect(body.mfaRequired).toBe(true)
  return body.challenge ?? ''
}

export const secondStep = (app: App, payload: object, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/auth/login/second-factor', payload, remoteAddress: ip })
