import { describe, expect, it } from 'vitest'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { sessionHeaders } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('account recovery with an external provider on $name', (database) => {
  const idp = useHubWithExternalProvider(database)

  it('serves no password reset: 404, as login', async () => {
    const headers = await anonymousHeaders(idp.app)
    for (const [url, payload] of [
      ['/api/auth/password-reset', { email: 'ada@idp.test' }],
      ['/api/auth/password-reset/confirm', { token: 'A'.repeat(43), password: 'a brand new passphrase' }]
    ] as const) {
      expect((await idp.app.inject({ method: 'POST', url, headers, payload })).statusCode).toBe(404)
    }
  })

  it('serves no email verification to a signed-in person: 404', async () => {
    const headers = sessionHeaders(await idp.signIn())
    expect((await idp.app.inject({ method: 'POST', url: '/api/account/email/verify', headers, payload: { token: 'A'.repeat(43) } })).statusCode).toBe(404)
    expect((await idp.app.inject({ method: 'POST', url: '/api/account/email/verification', headers })).statusCode).toBe(404)
  })
})
