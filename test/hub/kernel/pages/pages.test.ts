import { beforeAll, describe, expect, it } from 'vitest'
import { sessionHandle } from '../../../../src/hub/kernel/sessions/session-handle.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { type SignedIn, cookieHeader, cookiesSetBy, expectStrictPageCsp, hubAppPerSuite, logIn, pageCookies, signUpAndLogIn } from '../../../helpers/hub-app.js'

/** The pages through the hub's whole pipeline, on the first database under test (the pages hold no SQL of their own). */
describe('hub pages', () => {
  const [database] = databasesUnderTest()
  const suite = hubAppPerSuite(database!)
  let app: App
  let user: SignedIn

  beforeAll(async () => {
    app = suite.app
    user = await signUpAndLogIn(app)
  })

  const page = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
  const signedIn = (extra: Record<string, string> = {}) => pageCookies(user, extra)

  describe('protected pages without a valid session go to the login page and come back', () => {
    it.each([
      ['/dashboard', 'no cookie', {}],
      ['/privacy', 'no cookie', {}],
      ['/export', 'no cookie', {}],
      ['/dashboard', 'a forged cookie', { cookie: 'service-auth-token=someone-else' }],
      ['/privacy?tab=consent', 'an empty cookie', { cookie: 'service-auth-token=' }]
    ])('%s with %s: 303 to /login?next=...', async (path, _case, headers) => {
      const response = await page(path, headers)
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe(`/login?${new URLSearchParams({ next: path })}`)
    })

    it('after sign-out the old cookie no longer opens the dashboard', async () => {
      const other = await signUpAndLogIn(app)
      expect((await app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: other.headers })).statusCode).toBe(204)
      const response = await page('/dashboard', { cookie: cookieHeader({ 'service-auth-token': other.authCookie }) })
      expect(response.statusCode).toBe(303)
    })
  })

  it.each([
    ['signed out', '/login', false],
    ['signed in', '/dashboard', true]
  ])('/ when %s goes to %s', async (_case, location, withSession) => {
    const response = await page('/', withSession ? signedIn() : {})
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe(location)
  })

  describe('next on the login page', () => {
    it.each([
      ['//evil.com'],
      ['/\\evil.com'],
      ['https://evil.com'],
      ['%2F%2Fevil.com'],
      ['/\t/evil.com'],
      ['javascript:alert(1)']
    ])('a signed-in visit with next=%j lands on the dashboard', async (next) => {
      const response = await page(`/login?${new URLSearchParams({ next })}`, signedIn())
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/dashboard')
    })

    it('a repeated next is ignored: the page is served, not a JSON error', async () => {
      const response = await page('/login?next=%2Fprivacy&next=%2Fexport')
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.body).toContain('<form class="stacked-form" data-form="login"><label for="email">')
    })

    it('a same-site next is where a signed-in visit goes', async () => {
      const response = await page('/login?next=%2Fprivacy', signedIn())
      expect(response.headers.location).toBe('/privacy')
    })

    it('an unsafe next is not carried into the form', async () => {
      const response = await page('/login?next=%2F%2Fevil.com')
      expect(response.statusCode).toBe(200)
      expect(response.body).toContain('<form class="stacked-form" data-form="login"><label for="email">')
    })

    it('a safe next is carried into the form and the sign-up link, escaped', async () => {
      const next = '/privacy?x="><script>alert(1)</script>'
      const response = await page(`/login?${new URLSearchParams({ next })}`)
      expect(response.body).toContain('name="next" value="/privacy?x=%22%3E%3Cscript%3Ealert(1)%3C/script%3E"')
      expect(response.body).not.toContain('<script>alert(1)')
      expect(response.body).toContain('href="/signup?next=%2Fprivacy%3Fx%3D%2522%253E%253Cscript%253Ealert%281%29%253C%2Fscript%253E"')
    })
  })

  describe('language', () => {
    it.each([
      [{ 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' }, 'es', 'Iniciar sesión'],
      [{ 'accept-language': 'fr;q=1, es;q=0.5' }, 'es', 'Iniciar sesión'],
      [{ 'accept-language': 'de' }, 'en', 'Sign in'],
      [{}, 'en', 'Sign in'],
      [{ 'accept-language': 'es', cookie: 'lang=en' }, 'en', 'Sign in'],
      [{ 'accept-language': 'en', cookie: 'lang=es' }, 'es', 'Iniciar sesión'],
      [{ 'accept-language': 'en', cookie: 'lang=xx' }, 'en', 'Sign in']
    ])('%j renders <html lang="%s">', async (headers, language, heading) => {
      const response = await page('/login', headers)
      expect(response.body).toContain(`<html lang="${language}">`)
      expect(response.body).toContain(`<h1>${heading}</h1>`)
      expect(response.headers['content-language']).toBe(language)
    })

    it('the switcher sets the lang cookie and returns to the same-site page', async () => {
      const response = await page('/language?lang=es&next=%2Fprivacy')
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/privacy')
      expect(cookiesSetBy(response).lang).toMatchObject({ value: 'es', path: '/', httpOnly: true, sameSite: 'Lax' })
      // Not Secure: the test hub's public URL is plain http, as with the hub's own cookies.
      expect(cookiesSetBy(response).lang?.secure).toBeFalsy()
    })

    it.each([
      ['an unknown language sets no cookie', '/language?lang=fr&next=%2Flogin', '/login', undefined],
      ['an off-site next goes home', '/language?lang=es&next=%2F%2Fevil.com', '/', 'es'],
      ['no language at all changes nothing', '/language?next=%2Fprivacy', '/privacy', undefined],
      ['a repeated language or next is ignored, not an error', '/language?lang=es&lang=en&next=%2Fa&next=%2Fb', '/', undefined]
    ])('%s', async (_case, url, location, cookie) => {
      const response = await page(url)
      expect(response.headers.location).toBe(location)
      expect(cookiesSetBy(response).lang?.value).toBe(cookie)
    })
  })

  it('the dashboard shows who you are, your applications by name with Open, and this session', async () => {
    const response = await page('/dashboard', signedIn())
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toContain(user.email)
    // The user id is the account page's, in small print: nothing a person needs on the dashboard.
    expect(response.body).not.toContain(user.userId)
    expect(response.body).toContain('<li data-application="tasks"><span class="application-name">Tasks</span><a href="http://localhost:3000">Open Tasks</a></li>')
    expect(response.body).toContain('data-session="current"')
  })

  it('the dashboard lists the live sessions of this user only, without a signed-out one', async () => {
    const sessionRows = async () => ((await page('/dashboard', signedIn())).body.match(/<tr data-session="/g) ?? []).length
    const before = await sessionRows()
    const second = await logIn(app, user.email)
    await signUpAndLogIn(app)
    expect(await sessionRows()).toBe(before + 1)
    await app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: second.headers })
    expect(await sessionRows()).toBe(before)
  })

  it('the dashboard offers Sign out on every other session, by handle, and Sign out everywhere else', async () => {
    const fresh = await signUpAndLogIn(app)
    // The switch's cookie: a signed-in person's pages are otherwise in the account's language, not the browser's.
    const dashboardOf = async (session: SignedIn, language = 'en') =>
      (await page('/dashboard', { cookie: cookieHeader({ 'service-auth-token': session.authCookie, lang: language }) })).body
    const alone = await dashboardOf(fresh)
    expect(alone).not.toContain('data-action="end-session"')
    expect(alone).not.toContain('data-action="end-other-sessions"')

    const other = await logIn(app, fresh.email)
    const body = await dashboardOf(fresh)
    const otherId = other.authCookie.split('.')[2] ?? ''
    expect(body.match(/data-action="end-session"/g)).toHaveLength(1)
    expect(body).toContain(`data-action="end-session" data-session-id="${sessionHandle(otherId)}"`)
    expect(body).not.toContain(otherId)
    expect(body).toMatch(/<tr data-session="other">.*data-action="end-session"/s)
    expect(body).toContain('Sign out everywhere else')
    // The row's button names the session it ends, for screen readers.
    expect(body).toMatch(/Sign out <span class="visually-hidden">\(lightMyRequest, signed in [^)]+ UTC\)<\/span>/)
    expect(await dashboardOf(fresh, 'es')).toContain('Cerrar sesión en todos los demás sitios')
  })

  it('the privacy page shows the stored settings and the consent history', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/api/privacy/settings',
      headers: user.headers,
      payload: { cookies: { functional: true }, visibility: { profile: 'family' } }
    })
    expect(put.statusCode).toBe(200)
    await app.inject({ method: 'POST', url: '/api/privacy/consent', headers: user.headers, payload: { purpose: 'terms', granted: true, version: 'v9' } })
    const body = (await page('/privacy', signedIn())).body
    expect(body).toMatch(/<input id="field-cookies-functional" type="checkbox" name="cookies.functional" checked/)
    expect(body).toMatch(/<input id="field-cookies-analytics" type="checkbox" name="cookies.analytics"\/>/)
    expect(body).toMatch(/id="visibility-family" type="radio" name="visibility.profile" value="family" checked/)
    expect(body).toContain('<tr data-purpose="terms" data-granted="true">')
    expect(body).toContain('<td data-label="Policy version">v9</td>')
  })

  it('the export page names what an export holds and offers both formats', async () => {
    const body = (await page('/export', signedIn({ lang: 'es' }))).body
    expect(body).toContain('Tus ajustes de privacidad')
    expect(body).toContain('data-action="export" data-format="json"')
    expect(body).toContain('data-action="export" data-format="csv"')
  })

  it('every page carries the strict CSP, and its one script tag the response nonce', async () => {
    for (const [url, headers] of [
      ['/login', {}],
      ['/signup', {}],
      ['/dashboard', signedIn()],
      ['/privacy', signedIn()],
      ['/export', signedIn()]
    ] as const) {
      const response = await page(url, headers)
      expectStrictPageCsp(response, url)
    }
  })

  it('serves the built script and stylesheet with a year-long immutable cache, and nothing else', async () => {
    const html = (await page('/login')).body
    for (const asset of [/src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1], /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1]]) {
      const response = await page(asset ?? 'missing')
      expect(response.statusCode).toBe(200)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    expect((await page('/assets/manifest.json')).statusCode).toBe(404)
    expect((await page('/assets/..%2Fpackage.json')).statusCode).toBe(404)
  })
})
