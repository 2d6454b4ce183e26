import { describe, expect, it } from 'vitest'
import { hashSecret } from '../../../../src/hub/features/oidc/clients.js'
import { ADMINISTRATORS_ONLY } from '../../../../src/hub/kernel/pipeline/role.js'
import { RECENT_SIGN_IN_REQUIRED } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { forgetRecentSignIns, signUpAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'

const CLIENTS = '/api/admin/clients'
const CALLBACK = 'https://wiki.example/callback'

/** Every route of the applications' admin API, with a body a change would be accepted with. */
const ROUTES = [
  { method: 'GET', url: CLIENTS, change: false },
  { method: 'GET', url: `${CLIENTS}/wiki`, change: false },
  { method: 'POST', url: CLIENTS, change: true, payload: { clientId: 'anything', redirectUris: [CALLBACK] } },
  { method: 'PATCH', url: `${CLIENTS}/wiki`, change: true, payload: { name: 'Wiki' } },
  { method: 'DELETE', url: `${CLIENTS}/wiki`, change: true },
  { method: 'POST', url: `${CLIENTS}/wiki/secret`, change: true }
] as const

describe.each(databasesUnderTest())('the applications’ admin API, on $name', (database) => {
  // Each test signs up its own administrator: more sign-ups from one address than the default allows.
  const hub = useHubApp(database, { rateLimits: { signupsPerIp: { limit: 1000, windowMs: 60_000 } } })
  const as = (user: SignedIn | undefined, route: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }) =>
    hub.app.inject({ method: route.method, url: route.url, headers: user?.headers ?? {}, ...(route.payload ? { payload: route.payload } : {}) })
  const add = (admin: SignedIn, payload: object) => as(admin, { method: 'POST', url: CLIENTS, payload })
  const eventsOf = (userId: string) => hub.handle.db.selectFrom('auditEvents').select(['type', 'detail']).where('userId', '=', userId).where('type', 'like', 'client.%').orderBy('createdAt').execute()

  it.each(ROUTES)('$method $url: 401 for nobody signed in (with a CSRF token), 403 for a member, before anything is read', async (route) => {
    const nobody = await hub.app.inject({ method: route.method, url: route.url, headers: await anonymousHeaders(hub.app), ...('payload' in route ? { payload: route.payload } : {}) })
    expect(nobody.statusCode).toBe(401)
    const member = await signUpAndLogIn(hub.app)
    const refused = await as(member, route)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ error: ADMINISTRATORS_ONLY })
  })

  it.each(ROUTES.filter((route) => route.change))('$method $url: 401 for an administrator without a recent sign-in', async (route) => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'wiki', redirectUris: [CALLBACK] })
    await forgetRecentSignIns(hub.handle.db)
    const refused = await as(admin, route)
    expect(refused.statusCode).toBe(401)
    expect(refused.json()).toEqual({ error: RECENT_SIGN_IN_REQUIRED })
    expect(refused.headers['www-authenticate']).toMatch(/insufficient_user_authentication/)
    await as(await signUpAdministrator(hub.app, hub.handle.db), { method: 'DELETE', url: `${CLIENTS}/wiki` })
  })

  it('refuses a change without the CSRF header', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const { 'x-csrf-token': _token, ...withoutHeader } = admin.headers
    const refused = await hub.app.inject({ method: 'POST', url: CLIENTS, headers: withoutHeader, payload: { clientId: 'csrf', redirectUris: [CALLBACK] } })
    expect(refused.statusCode).toBe(403)
  })

  it('adds a confidential client, with its secret in that answer only, and reads it back without it', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await add(admin, { clientId: 'gitea', name: 'Gitea', redirectUris: [CALLBACK, 'https://git.example/cb'], postLogoutRedirectUris: ['https://git.example/'] })
    expect(added.statusCode).toBe(201)
    expect(added.headers['cache-control']).toBe('no-store')
    const { secret, ...client } = added.json<{ secret: string; createdAt: string }>()
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(client).toEqual({
      clientId: 'gitea',
      name: 'Gitea',
      public: false,
      firstParty: false,
      redirectUris: [CALLBACK, 'https://git.example/cb'],
      postLogoutRedirectUris: ['https://git.example/'],
      backchannelLogoutUri: null,
      allowedGroups: [],
      limitedToGroups: false,
      createdAt: client.createdAt,
      idTokenAlg: 'EdDSA',
      pkce: 'required',
      authMethod: 'client_secret_basic',
      logoUrl: null
    })
    const row = await hub.handle.db.selectFrom('oidcClients').selectAll().where('id', '=', 'gitea').executeTakeFirstOrThrow()
    expect(row.secretHash).toBe(hashSecret(secret))

    const one = await as(admin, { method: 'GET', url: `${CLIENTS}/gitea` })
    expect(one.statusCode).toBe(200)
    expect(one.json()).toEqual(client)
    const list = await as(admin, { method: 'GET', url: CLIENTS })
    expect(list.json<{ clients: unknown[] }>().clients).toContainEqual(client)
    expect(list.body).not.toContain(secret)
    expect(await eventsOf(admin.userId)).toEqual([{ type: 'client.added', detail: JSON.stringify({ clientId: 'gitea', name: 'Gitea' }) }])
  })

  it('adds a public first-party client without a secret; the name defaults to the id', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const added = await add(admin, { clientId: 'family-app', public: true, firstParty: true, redirectUris: ['http://localhost:8080/cb'] })
    expect(added.statusCode).toBe(201)
    expect(added.json()).not.toHaveProperty('secret')
    expect(added.json()).toMatchObject({ clientId: 'family-app', name: 'family-app', public: true, firstParty: true })
  })

  it.each([
    ['a client id with a dot', { clientId: 'my.app', redirectUris: [CALLBACK] }, 'The client id must be 1 to 59 characters: lower-case letters, digits, "_" or "-"'],
    ['no redirect URI', { clientId: 'app', redirectUris: [] }, 'A client needs at least one redirect URI'],
    ['a javascript: redirect URI', { clientId: 'app', redirectUris: ['javascript:alert(1)'] }, 'Not an http(s) URL without a fragment: javascript:alert(1)'],
    ['a redirect URI with a fragment', { clientId: 'app', redirectUris: ['https://a.example/cb#x'] }, 'Not an http(s) URL without a fragment: https://a.example/cb#x'],
    ['a bad post-logout URI', { clientId: 'app', redirectUris: [CALLBACK], postLogoutRedirectUris: ['ftp://a.example/'] }, 'Not an http(s) URL without a fragment: ftp://a.example/'],
    ['a bad back-channel URI', { clientId: 'app', redirectUris: [CALLBACK], backchannelLogoutUri: 'nope' }, 'Not an http(s) URL without a fragment: nope'],
    ['a too long URI', { clientId: 'app', redirectUris: [`https://a.example/${'x'.repeat(2000)}`] }, 'A URI may be at most 2000 characters'],
    ['21 redirect URIs', { clientId: 'app', redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) }, 'A client has at most 20 redirect URIs and 20 post-logout redirect URIs'],
    ['an empty name', { clientId: 'app', name: '  ', redirectUris: [CALLBACK] }, 'The client name must not be empty'],
    ['a name with a control character', { clientId: 'app', name: 'A\u0007pp', redirectUris: [CALLBACK] }, 'The client name must not contain control or invisible characters']
  ])('refuses %s: 400 {error}', async (_label, payload, error) => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const refused = await add(admin, payload)
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({ error })
  })

  it('refuses a field it does not know, and a body without redirect URIs, by its schema (400)', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    expect((await add(admin, { clientId: 'app', redirectUris: [CALLBACK], secret: 'mine' })).statusCode).toBe(400)
    expect((await add(admin, { clientId: 'app' })).statusCode).toBe(400)
  })

  it('refuses an id already registered: 409', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    expect((await add(admin, { clientId: 'twice', redirectUris: [CALLBACK] })).statusCode).toBe(201)
    const refused = await add(admin, { clientId: 'twice', redirectUris: ['https://other.example/cb'], public: true })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ error: 'A client with id twice already exists' })
  })

  it('answers 404 {error} for an unknown client on every route that names one', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    for (const route of ROUTES.filter((one) => one.url !== CLIENTS)) {
      const answer = await as(admin, { ...route, url: route.url.replace('/wiki', '/nobody') })
      expect(answer.statusCode, `${route.method} ${route.url}`).toBe(404)
      expect(answer.json()).toEqual({ error: 'No client has this id' })
    }
  })

  it('changes what the body names and nothing else, by the same rules; the id and the kind stay', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'photos', name: 'Photos', redirectUris: [CALLBACK], backchannelLogoutUri: 'https://photos.example/logout' })
    const patch = (payload: object) => as(admin, { method: 'PATCH', url: `${CLIENTS}/photos`, payload })

    const changed = await patch({ name: 'Family photos', redirectUris: ['https://photos.example/cb', 'https://photos.example/cb'], firstParty: true })
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ clientId: 'photos', name: 'Family photos', public: false, firstParty: true, redirectUris: ['https://photos.example/cb'], backchannelLogoutUri: 'https://photos.example/logout' })

    expect((await patch({ backchannelLogoutUri: null })).json()).toMatchObject({ backchannelLogoutUri: null, name: 'Family photos' })
    expect((await patch({ redirectUris: [] })).json()).toEqual({ error: 'A client needs at least one redirect URI' })
    expect((await patch({ redirectUris: ['photos.example/cb'] })).statusCode).toBe(400)
    expect((await patch({ public: true })).statusCode).toBe(400)
    expect((await patch({ clientId: 'other' })).statusCode).toBe(400)
    expect((await as(admin, { method: 'GET', url: `${CLIENTS}/photos` })).json()).toMatchObject({ redirectUris: ['https://photos.example/cb'], public: false })

    const events = await eventsOf(admin.userId)
    expect(events.map((event) => [event.type, JSON.parse(event.detail ?? '{}')])).toEqual([
      ['client.added', { clientId: 'photos', name: 'Photos' }],
      ['client.changed', { clientId: 'photos', name: 'Family photos', changed: ['name', 'redirectUris', 'firstParty'] }],
      ['client.changed', { clientId: 'photos', name: 'Family photos', changed: ['backchannelLogoutUri'] }]
    ])
  })

  it('changes a client registered before names had rules without asking to rename it, but checks a new name', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'legacy', redirectUris: [CALLBACK] })
    await hub.handle.db.updateTable('oidcClients').set({ name: 'L'.repeat(120) }).where('id', '=', 'legacy').execute()
    const patch = (payload: object) => as(admin, { method: 'PATCH', url: `${CLIENTS}/legacy`, payload })
    expect((await patch({ redirectUris: ['https://legacy.example/cb'] })).json()).toMatchObject({ name: 'L'.repeat(120), redirectUris: ['https://legacy.example/cb'] })
    expect((await patch({ name: 'L'.repeat(120) })).statusCode).toBe(200)
    expect((await patch({ name: 'L'.repeat(65) })).json()).toEqual({ error: 'The client name must be at most 64 characters' })
  })

  it('replaces a confidential client’s secret (the old hash goes), and refuses a public client’s: 409', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    const first = (await add(admin, { clientId: 'rotating', redirectUris: [CALLBACK] })).json<{ secret: string }>().secret
    const rotated = await as(admin, { method: 'POST', url: `${CLIENTS}/rotating/secret` })
    expect(rotated.statusCode).toBe(200)
    expect(rotated.headers['cache-control']).toBe('no-store')
    const { secret } = rotated.json<{ secret: string }>()
    expect(secret).not.toBe(first)
    const row = await hub.handle.db.selectFrom('oidcClients').select('secretHash').where('id', '=', 'rotating').executeTakeFirstOrThrow()
    expect(row.secretHash).toBe(hashSecret(secret))

    await add(admin, { clientId: 'spa', public: true, redirectUris: [CALLBACK] })
    const refused = await as(admin, { method: 'POST', url: `${CLIENTS}/spa/secret` })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ error: 'A public client has no secret to rotate: PKCE is its only proof' })
    expect((await eventsOf(admin.userId)).map((event) => event.type)).toEqual(['client.added', 'client.secret-rotated', 'client.added'])
  })

  it('removes a client with its grants and tokens: 204, then 404', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'leaving', name: 'Leaving', redirectUris: [CALLBACK] })
    await hub.handle.db
      .insertInto('oidcProviderRecords')
      .values({ model: 'Grant', id: 'grant-1', payload: '{}', grantId: 'grant-1', uid: null, userCode: null, accountId: admin.userId, clientId: 'leaving', expiresAt: null, consumedAt: null })
      .execute()
    const removed = await as(admin, { method: 'DELETE', url: `${CLIENTS}/leaving` })
    expect(removed.statusCode).toBe(204)
    expect(await hub.handle.db.selectFrom('oidcProviderRecords').select('id').where('clientId', '=', 'leaving').execute()).toEqual([])
    expect((await as(admin, { method: 'GET', url: `${CLIENTS}/leaving` })).statusCode).toBe(404)
    expect((await as(admin, { method: 'DELETE', url: `${CLIENTS}/leaving` })).statusCode).toBe(404)
    expect((await eventsOf(admin.userId)).map((event) => [event.type, JSON.parse(event.detail ?? '{}')])).toEqual([
      ['client.added', { clientId: 'leaving', name: 'Leaving' }],
      ['client.removed', { clientId: 'leaving', name: 'Leaving' }]
    ])
  })

  it('shows the administrator’s changes on their own activity page, in both languages', async () => {
    const admin = await signUpAdministrator(hub.app, hub.handle.db)
    await add(admin, { clientId: 'seen', name: 'Seen app', redirectUris: [CALLBACK] })
    const page = (lang: string) => hub.app.inject({ url: '/activity', headers: { cookie: `${admin.headers.cookie}; lang=${lang}` } })
    expect((await page('en')).body).toContain('Added the application “Seen app” (seen)')
    expect((await page('es')).body).toContain('Añadiste la aplicación «Seen app» (seen)')
  })

  it('lists the API in the OpenAPI document', async () => {
    const document = (await hub.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>()
    expect(Object.keys(document.paths[CLIENTS] ?? {}).sort()).toEqual(['get', 'post'])
    expect(Object.keys(document.paths[`${CLIENTS}/{clientId}`] ?? {}).sort()).toEqual(['delete', 'get', 'patch'])
    expect(Object.keys(document.paths[`${CLIENTS}/{clientId}/secret`] ?? {})).toEqual(['post'])
  })
})
