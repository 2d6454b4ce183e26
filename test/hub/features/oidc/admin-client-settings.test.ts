import { describe, expect, it } from 'vitest'
import { signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, useHubApp } from '../../../helpers/hub-app.js'

const CLIENTS = '/api/admin/clients'
const CALLBACK = 'https://photos.example/callback'

describe.each(databasesUnderTest())('the admin API’s client settings (issue 30), on $name', (database) => {
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 1000, windowMs: 60_000 } } })
  const add = (admin: SignedIn, payload: object) => hub.app.inject({ method: 'POST', url: CLIENTS, headers: admin.headers, payload })
  const patch = (admin: SignedIn, id: string, payload: object) => hub.app.inject({ method: 'PATCH', url: `${CLIENTS}/${id}`, headers: admin.headers, payload })

  it('registers a client with its ID token algorithm, PKCE, authentication method and logo, and answers them', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await add(admin, {
      clientId: 'immich',
      name: 'Immich',
      redirectUris: [CALLBACK],
      idTokenAlg: 'RS256',
      pkce: 'optional',
      authMethod: 'client_secret_post',
      logoUrl: 'https://photos.example/logo.png'
    })
    expect(added.statusCode).toBe(201)
    const expected = { idTokenAlg: 'RS256', pkce: 'optional', authMethod: 'client_secret_post', logoUrl: 'https://photos.example/logo.png' }
    expect(added.json()).toMatchObject(expected)
    expect((await hub.app.inject({ url: `${CLIENTS}/immich`, headers: admin.headers })).json()).toMatchObject(expected)
  })

  it('answers a public client’s fixed settings: PKCE required, no authentication method', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await add(admin, { clientId: 'immich-phone', public: true, redirectUris: ['app.immich:///oauth-callback', 'http://127.0.0.1/callback'] })
    expect(added.statusCode).toBe(201)
    expect(added.json()).toMatchObject({ public: true, pkce: 'required', authMethod: 'none', idTokenAlg: 'EdDSA', logoUrl: null, redirectUris: ['app.immich:///oauth-callback', 'http://127.0.0.1/callback'] })
  })

  it('changes the settings, and removes the logo with null', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'grafana', redirectUris: [CALLBACK], logoUrl: 'https://grafana.example/logo.svg' })
    const changed = await patch(admin, 'grafana', { idTokenAlg: 'ES256', pkce: 'optional', authMethod: 'client_secret_post', logoUrl: null })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ idTokenAlg: 'ES256', pkce: 'optional', authMethod: 'client_secret_post', logoUrl: null })
    const events = await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', admin.userId).where('type', '=', 'client.changed').execute()
    expect(JSON.parse(events[0]?.detail ?? '{}')).toMatchObject({ changed: ['idTokenAlg', 'pkce', 'authMethod', 'logoUrl'] })
  })

  it.each([
    [
      'a private-use scheme on a confidential client',
      { clientId: 'app', redirectUris: ['app.immich:///oauth-callback'] },
      'A private-use URI scheme is for native applications, which are public clients (they can keep no secret): register app.immich:///oauth-callback on a public client'
    ],
    ['PKCE optional on a public client', { clientId: 'app', public: true, redirectUris: [CALLBACK], pkce: 'optional' }, 'A public client always uses PKCE: it is its only proof'],
    ['a secret method on a public client', { clientId: 'app', public: true, redirectUris: [CALLBACK], authMethod: 'client_secret_basic' }, 'A public client has no secret: its authentication method is none'],
    [
      'no secret method on a confidential client',
      { clientId: 'app', redirectUris: [CALLBACK], authMethod: 'none' },
      'A confidential client proves itself with its secret: client_secret_basic or client_secret_post'
    ],
    [
      'a logo over plain http',
      { clientId: 'app', redirectUris: [CALLBACK], logoUrl: 'http://photos.example/logo.png' },
      'A logo URL must be an https URL (http only on localhost), without a fragment or credentials, written in full (https://photos.example/logo.png)'
    ],
    [
      'a logo with credentials',
      { clientId: 'app', redirectUris: [CALLBACK], logoUrl: 'https://user:pass@photos.example/logo.png' },
      'A logo URL must be an https URL (http only on localhost), without a fragment or credentials, written in full (https://photos.example/logo.png)'
    ]
  ])('refuses %s: 400 {error}', async (_case, payload, error) => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await add(admin, payload)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error })
  })

  it.each([
    ['an unknown algorithm', { idTokenAlg: 'HS256' }],
    ['an unknown PKCE policy', { pkce: 'sometimes' }],
    ['an unknown authentication method', { authMethod: 'private_key_jwt' }]
  ])('refuses %s by its schema: 400 {error}', async (_case, payload) => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await add(admin, { clientId: 'app', redirectUris: [CALLBACK], ...payload })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error: expect.any(String) })
  })

  it('refuses a private-use scheme given to a confidential client by a change', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'server-app', redirectUris: [CALLBACK] })
    const refused = await patch(admin, 'server-app', { redirectUris: ['com.example.app:/callback'] })
    expect(refused.statusCode).toBe(400)
    expect(refused.json<{ error: string }>().error).toMatch(/^A private-use URI scheme is for native applications/)
  })
})
