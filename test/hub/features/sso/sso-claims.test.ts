import { type JWTPayload, decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import type { App } from '../../../../src/shared/http/server.js'
import { linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, buildTestHubApp, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

describe.each(databasesUnderTest())('what SSO tokens say of the person on $name', (database) => {
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  const ssoClaims = async (user: SignedIn, app: App = hub.app): Promise<JWTPayload> => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/generate-token', headers: user.headers, payload: { audience: 'tasks' } })
    expect(response.statusCode, response.body).toBe(200)
    return decodeJwt(response.json<{ token: string }>().token)
  }
  const setDisplayName = async (user: SignedIn, displayName: string) =>
    expect((await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { displayName } })).statusCode).toBe(200)
  const setVisibility = async (user: SignedIn, profile: string) =>
    expect((await hub.app.inject({ method: 'PUT', url: '/api/privacy/settings', headers: user.headers, payload: { visibility: { profile } } })).statusCode).toBe(200)

  it('says email_verified: true from the moment the link is used, to a session opened before, on every instance', async () => {
    const email = uniqueEmail('sso-verified')
    const user = await signUpAndLogIn(hub.app, email)
    const token = linkToken((await mailsTo(smtp.server, email))[0], '/verify-email')
    // Another hub on the same database (started after the mail went, so its sender finds none to take).
    const otherInstance = await buildTestHubApp(hub.handle)
    try {
      // Both instances now hold the session row, unverified, in their caches.
      expect(await ssoClaims(user)).toMatchObject({ email, email_verified: false })
      expect(await ssoClaims(user, otherInstance)).toMatchObject({ email, email_verified: false })

      const verified = await hub.app.inject({ method: 'POST', url: '/api/account/email/verify', headers: user.headers, payload: { token } })
      expect(verified.statusCode, verified.body).toBe(204)

      expect(await ssoClaims(user)).toMatchObject({ email, email_verified: true })
      expect(await ssoClaims(user, otherInstance)).toMatchObject({ email, email_verified: true })
    } finally {
      await otherInstance.close()
    }
  })

  it('carries the display name only while the profile is visible to family or the public', async () => {
    const user = await signUpAndLogIn(hub.app)
    await setDisplayName(user, '  Ada Lovelace ')
    // The default is a private profile: no settings stored yet.
    expect(await ssoClaims(user)).not.toHaveProperty('name')

    await setVisibility(user, 'family')
    expect(await ssoClaims(user)).toMatchObject({ name: 'Ada Lovelace' })
    await setVisibility(user, 'public')
    expect(await ssoClaims(user)).toMatchObject({ name: 'Ada Lovelace' })
    await setDisplayName(user, 'Ada')
    expect(await ssoClaims(user)).toMatchObject({ name: 'Ada' })

    await setVisibility(user, 'private')
    expect(await ssoClaims(user)).not.toHaveProperty('name')
  })

  it('carries no name when none is set, whatever the visibility', async () => {
    const user = await signUpAndLogIn(hub.app)
    await setVisibility(user, 'public')
    const claims = await ssoClaims(user)
    expect(claims).not.toHaveProperty('name')
    expect(claims).toMatchObject({ sub: user.userId, email: user.email })
  })
})
