import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chromiumUnderTest, keepScreenshots } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { confirmAddress } from '../../../helpers/account-mail.js'
import { GOOD_PASSWORD, signUpAndLogIn, uniqueEmail } from '../../../helpers/hub-app.js'
import { useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()

/** A phishing page's host: Chromium treats every *.localhost as loopback and a secure context. */
const OTHER_SITE = 'other.localhost'

interface ApiAnswer {
  status: number
  body: Record<string, unknown> | null
}

interface VirtualCredential {
  /** base64, as the DevTools protocol gives binary. */
  credentialId: string
  isResidentCredential: boolean
  rpId: string
  privateKey: string
  userHandle: string
  signCount: number
}

/**
 * Runs in the page: the hub's API called as its own script would (the CSRF header from the
 * cookie), and the WebAuthn calls a page makes, answered by Chromium's virtual authenticator.
 */
const IN_PAGE = `
  const csrfToken = () => decodeURIComponent((document.cookie.match(/(?:^|; )service-csrf-token=([^;]*)/) || [])[1] || '')
  const api = async (method, path, body) => {
    const headers = { 'x-csrf-token': csrfToken() }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
  const create = async (options) => (await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })).toJSON()
  const get = async (options) => (await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) })).toJSON()
`

/**
 * Real WebAuthn ceremonies: a hub in this process on a real port, at http://localhost:PORT (its
 * HUB_PUBLIC_URL), and Chromium with a virtual platform authenticator (CTAP2, internal, resident
 * keys, user verification) answering the page's navigator.credentials calls.
 */
describe.skipIf(!withChromium).each(databasesUnderTest())('passkeys in a browser on $name', { timeout: 60_000 }, (database) => {
  const hub = useHubInBrowser(database, { host: 'localhost' })
  let context: BrowserContext
  let page: Page
  let devtools: CDPSession
  let authenticatorId: string
  const email = uniqueEmail('passkey-browser')

  beforeAll(async () => {
    context = await hub.browser.newContext({ baseURL: hub.origin })
    page = await context.newPage()
    devtools = await context.newCDPSession(page)
    await devtools.send('WebAuthn.enable')
    const added = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true }
    })
    authenticatorId = added.authenticatorId
    await page.goto('/login')
  })

  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots([page], task.name))
  })

  const inPage = <T>(body: string): Promise<T> => page.evaluate<T>(`(async () => { ${IN_PAGE} ${body} })()`)
  const credentials = async () => (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[]
  const signInWithPasskey = () =>
    inPage<ApiAnswer>(`
      const options = (await api('POST', '/api/auth/passkey/options')).body
      return api('POST', '/api/auth/passkey', { response: await get(options) })
    `)
  /** Sets the passkey's counter on the authenticator, as a copy of it taken earlier would have it. */
  const setSignCount = async (credential: VirtualCredential, signCount: number) => {
    await devtools.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId })
    await devtools.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount } })
  }

  it('adds a passkey the authenticator makes, discoverable, and lists it', async () => {
    // An account whose address is confirmed: no other may add a passkey.
    await confirmAddress(hub.app, hub.handle.db, await signUpAndLogIn(hub.app, email))
    const added = await inPage<ApiAnswer>(`
      const login = await api('POST', '/api/auth/login', { email: ${JSON.stringify(email)}, password: ${JSON.stringify(GOOD_PASSWORD)} })
      if (login.status !== 200) return login
      const options = (await api('POST', '/api/account/passkeys/options')).body
      return api('POST', '/api/account/passkeys', { response: await create(options), name: 'This browser' })
    `)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body).toMatchObject({ name: 'This browser' })
    const listed = await inPage<ApiAnswer>(`return api('GET', '/api/account/passkeys')`)
    expect(listed.body).toEqual({ passkeys: [{ id: added.body?.id, name: 'This browser', createdAt: added.body?.createdAt, lastUsedAt: null }] })
    const [stored, ...more] = await credentials()
    expect(more).toEqual([])
    expect(stored).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })
  })

  it('signs in with the passkey and no password, and the cookies work afterwards', async () => {
    await context.clearCookies()
    await page.goto('/dashboard')
    await page.waitForURL('**/login?next=%2Fdashboard')
    const signedIn = await signInWithPasskey()
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
    expect(signedIn.body).toEqual({ userId: expect.any(String), idToken: expect.any(String), expiresAt: expect.any(String) })
    await page.goto('/dashboard')
    expect(page.url()).toBe(`${hub.origin}/dashboard`)
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(1)
    const listed = await inPage<ApiAnswer>(`return api('GET', '/api/account/passkeys')`)
    expect((listed.body?.passkeys as { lastUsedAt: string | null }[])[0]?.lastUsedAt).not.toBeNull()
  })

  it('uses a sign-in challenge once: a second assertion over it is refused', async () => {
    const answers = await inPage<ApiAnswer[]>(`
      const options = (await api('POST', '/api/auth/passkey/options')).body
      const first = await get(options)
      const second = await get(options)
      return [
        await api('POST', '/api/auth/passkey', { response: first }),
        await api('POST', '/api/auth/passkey', { response: second }),
        await api('POST', '/api/auth/passkey', { response: first })
      ]
    `)
    expect(answers.map(({ status }) => status)).toEqual([200, 401, 401])
    expect(answers[1]?.body).toEqual({ error: 'This passkey sign-in expired or was already used; begin again' })
  })

  it('refuses a signature counter that went back, as from a copy of the key', async () => {
    const [credential] = await credentials()
    if (!credential) throw new Error('no credential on the authenticator')
    expect(credential.signCount).toBeGreaterThan(1)
    await setSignCount(credential, 1)
    const copy = await signInWithPasskey()
    expect(copy.status).toBe(401)
    expect(copy.body).toEqual({ error: 'The passkey was not accepted' })
    // The original, which counted on, still signs in.
    await setSignCount(credential, credential.signCount)
    expect((await signInWithPasskey()).status).toBe(200)
  })

  it('refuses a ceremony for another site: a passkey added there, or an assertion it relays', async () => {
    const [credential] = await credentials()
    if (!credential) throw new Error('no credential on the authenticator')
    // The session's registration options and a sign-in challenge, taken to another site's page.
    const { creation, request } = await inPage<{ creation: Record<string, unknown>; request: Record<string, unknown> }>(`
      return {
        creation: (await api('POST', '/api/account/passkeys/options')).body,
        request: (await api('POST', '/api/auth/passkey/options')).body
      }
    `)
    // The same key, scoped by the authenticator to the other site, as a phishing page would ask for it.
    await devtools.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId })
    await devtools.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, rpId: OTHER_SITE } })
    const port = new URL(hub.origin).port
    // The hub answers another host 421; the page is still a document of that origin.
    await page.goto(`http://${OTHER_SITE}:${port}/login`)
    const made = await inPage<{ registration: unknown; assertion: unknown }>(`
      const creation = ${JSON.stringify(creation)}
      const request = ${JSON.stringify(request)}
      // The assertion first: a passkey made there for the same account replaces the copied one.
      const assertion = await get({ ...request, rpId: '${OTHER_SITE}', allowCredentials: [{ id: '${Buffer.from(credential.credentialId, 'base64').toString('base64url')}', type: 'public-key' }] })
      const registration = await create({ ...creation, rp: { ...creation.rp, id: '${OTHER_SITE}' }, excludeCredentials: [] })
      return { registration, assertion }
    `)
    await page.goto('/login')
    await devtools.send('WebAuthn.clearCredentials', { authenticatorId })
    await devtools.send('WebAuthn.addCredential', { authenticatorId, credential })
    const answers = await inPage<ApiAnswer[]>(`
      return [
        await api('POST', '/api/account/passkeys', { response: ${JSON.stringify(made.registration)} }),
        await api('POST', '/api/auth/passkey', { response: ${JSON.stringify(made.assertion)} })
      ]
    `)
    expect(answers).toEqual([
      { status: 400, body: { error: 'The passkey could not be verified' } },
      { status: 401, body: { error: 'The passkey was not accepted' } }
    ])
    const listed = await inPage<ApiAnswer>(`return api('GET', '/api/account/passkeys')`)
    expect(listed.body?.passkeys).toHaveLength(1)
    // Nothing the other site did counted against the passkey here.
    expect((await signInWithPasskey()).status).toBe(200)
  })
})
