import { describe, expect, it } from 'vitest'
import { INVALID_RESET_LINK } from '../../../../src/hub/features/account/password-reset.js'
import { linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { type SignedIn, cookieHeader, cookiesSetBy, expectStrictPageCsp, pageCookies, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const ACCOUNT_PAGES = ['/forgot-password', '/reset-password', '/verify-email', '/confirm-email']


/** The account and recovery pages through the hub's whole pipeline, on the first database under test. */
describe('account pages', () => {
  const [database] = databasesUnderTest()
  const smtp = useSmtpServer()
  const hub = useHubApp(database!, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))
  const page = (url: string, headers: Record<string, string> = {}) => hub.app.inject({ method: 'GET', url, headers })
  const setLocale = async (user: SignedIn, locale: string) => {
    const response = await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { locale } })
    expect(response.statusCode, response.body).toBe(200)
  }

  it('the login page links to /forgot-password, which asks for the address and posts it through the script', async () => {
    expect((await page('/login')).body).toContain('<a href="/forgot-password">Forgot your password?</a>')
    const response = await page('/forgot-password')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toContain('<h1>Reset your password</h1>')
    expect(response.body).toMatch(/<form class="stacked-form" data-form="forgot-password" data-msg-done="If \{email\} belongs to an account, a link is on its way to it\. Check your inbox\.">/)
    expect(response.body).toContain('<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required/>')
    expect(response.body).toContain('<a href="/login">Back to sign in</a>')
  })

  it('/reset-password holds no token: the script takes it from the fragment; a refused link is told by the API text and links to /forgot-password', async () => {
    const body = (await page('/reset-password')).body
    expect(body).toContain('data-form="reset-password" data-link-token="password-reset"')
    expect(body).toContain(`data-link-refused-error="${INVALID_RESET_LINK}"`)
    expect(body).toContain('data-msg-link-refused="This link is invalid, used or expired."')
    expect(body).toContain('<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128" aria-describedby="password-hint"/>')
    expect(body).toContain('<p id="password-hint" class="hint">')
    expect(body).toContain('<a href="/forgot-password">Ask for a new one</a>')
  })

  it('after a reset the login page says the password was changed; an unknown notice is ignored', async () => {
    const noted = (await page('/login?notice=password-reset')).body
    expect(noted).toContain('<p class="notice" role="status">Your password was changed and every session of your account was signed out.')
    for (const url of ['/login?notice=other', '/login?notice=password-reset&notice=password-reset', '/login']) {
      const response = await page(url)
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).not.toContain('class="notice"')
    }
    expect((await page('/login?notice=password-reset', { 'accept-language': 'es' })).body).toContain('Tu contraseña se cambió')
  })

  describe.each([
    ['/verify-email', '/api/account/email/verify', 'Confirm your email address', 'Sign in to confirm your address'],
    ['/confirm-email', '/api/account/email/confirm', 'Confirm your new address', 'Sign in to the account whose address you are changing']
  ])('%s', (path, api, heading, signInFirst) => {
    it('signed out: the page names its API and keeps a hidden sign-in step that comes back here', async () => {
      const body = (await page(path)).body
      expect(body).toContain(`<h1>${heading}</h1>`)
      expect(body).toContain(`<section data-link-page="${api}" data-link-token="${path.slice(1)}"`)
      expect(body).toContain(`<p data-sign-in-first="true" hidden>${signInFirst}`)
      expect(body).toContain(`<a href="/login?next=${encodeURIComponent(path)}">Sign in</a>`)
      expect(body).toContain('<p class="form-message" role="alert" data-form-message="true"></p>')
      expect(body).toContain('data-signed-in="false"')
    })

    it('signed in: no sign-in step, the navigation, and the account language', async () => {
      const user = await signUpAndLogIn(hub.app)
      await setLocale(user, 'es')
      const response = await page(path, pageCookies(user))
      expect(response.statusCode).toBe(200)
      expect(response.body).not.toContain('data-sign-in-first')
      expect(response.body).toContain('data-signed-in="true"')
      expect(response.body).toContain('<a href="/account">Cuenta</a>')
      expect(response.headers['content-language']).toBe('es')
    })
  })

  it('/account needs a session, and comes back to it after signing in', async () => {
    const response = await page('/account')
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/login?next=%2Faccount')
  })

  it('/account shows the profile, the address unconfirmed with a resend button, and the three forms; the navigation links to it', async () => {
    const user = await signUpAndLogIn(hub.app)
    const named = await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { displayName: 'Ada <b>L</b>' } })
    expect(named.statusCode).toBe(200)
    const body = (await page('/account', pageCookies(user))).body
    expect(body).toContain('<a href="/account">Account</a>')
    expect(body).toContain('<h1>Your account</h1>')
    expect(body).toContain('value="Ada &lt;b>L&lt;/b>" required aria-describedby="display-name-hint"')
    expect(body).toMatch(/<option value="en" lang="en" selected>English<\/option><option value="es" lang="es">Español<\/option>/)
    expect(body).toContain(`<strong>${user.email}</strong><span class="badge" data-email-verified="false">Not confirmed yet</span>`)
    expect(body).toContain('data-action="resend-verification"')
    expect(body).toContain(`data-msg-done="A new link is on its way to ${user.email}."`)
    // A wrong current password is the form's 401, named by the API's text: address, password and deletion forms.
    expect(body.match(/data-wrong-password-error="Current password is incorrect"/g)).toHaveLength(3)
    expect(body).toContain('data-form="email-change"')
    expect(body).toContain('data-msg-email-taken="Another account already uses this address."')
    expect(body).toContain('data-form="password-change"')
    expect(body).toContain('<input id="new-password" name="newPassword" type="password" autocomplete="new-password"')
    // The id the dashboard no longer shows, labelled, in small print.
    expect(body).toContain(`<p class="hint">Your account’s id, should an administrator ask for it: ${user.userId}</p>`)
  })

  it('/account gives every form with a password the account’s address as a hidden username, for password managers', async () => {
    const user = await signUpAndLogIn(hub.app)
    const body = (await page('/account', pageCookies(user))).body
    const username = `<input type="email" name="username" autocomplete="username" value="${user.email}" hidden/>`
    for (const form of ['email-change', 'password-change', 'account-deletion', 'reauthenticate-password']) {
      const markup = new RegExp(`<form [^>]*data-form="${form}".*?</form>`, 's').exec(body)?.[0] ?? ''
      expect(markup, form).toMatch(/type="password"/)
      expect(markup, form).toContain(username)
    }
    // The address change's new address is an address, not the username.
    expect(body).toContain('<input id="new-email" name="email" type="email" autocomplete="email"')
    // Sign-up and login: the address is the username, the password new or current.
    const signup = (await page('/signup')).body
    expect(signup).toContain('<input id="email" name="email" type="email" autocomplete="username" required/>')
    expect(signup).toContain('<input id="password" name="password" type="password" autocomplete="new-password"')
    const login = (await page('/login')).body
    expect(login).toContain('<input id="email" name="email" type="email" autocomplete="username" required/>')
    expect(login).toContain('<input id="password" name="password" type="password" autocomplete="current-password" required/>')
    // The reset page's is filled by the script with the address the mailed link carries.
    expect((await page('/reset-password')).body).toContain('<input type="email" name="username" autocomplete="username" hidden data-link-account="true"/>')
  })

  it('/account without a display name does not require one; a confirmed address has no resend button', async () => {
    const email = uniqueEmail('pages-verified')
    const user = await signUpAndLogIn(hub.app, email)
    const token = linkToken((await mailsTo(smtp.server, email))[0], '/verify-email')
    expect((await hub.app.inject({ method: 'POST', url: '/api/account/email/verify', headers: user.headers, payload: { token } })).statusCode).toBe(204)
    const body = (await page('/account', pageCookies(user))).body
    expect(body).toContain('<input id="display-name" name="displayName" type="text" autocomplete="nickname" value aria-describedby="display-name-hint"/>')
    expect(body).toContain('data-email-verified="true">Confirmed</span>')
    expect(body).not.toContain('data-action="resend-verification"')
  })

  describe('language of a signed-in person', () => {
    it.each([
      ['the account locale over the browser', 'es', {}, 'es', 'Panel'],
      ['the switch over the account locale', 'es', { lang: 'en' }, 'en', 'Dashboard'],
      ['the switch over the account locale, the other way', 'en', { lang: 'es' }, 'es', 'Panel'],
      ['the account locale en over a Spanish browser', 'en', {}, 'en', 'Dashboard']
    ])('%s', async (_case, locale, cookies, language, heading) => {
      const user = await signUpAndLogIn(hub.app)
      await setLocale(user, locale)
      const response = await page('/dashboard', { ...pageCookies(user, cookies), 'accept-language': locale === 'es' ? 'en' : 'es' })
      expect(response.body).toContain(`<html lang="${language}">`)
      expect(response.body).toContain(`<h1>${heading}</h1>`)
      expect(response.headers['content-language']).toBe(language)
    })

    it('a signed-out page stays with the browser, whatever account last used it', async () => {
      const user = await signUpAndLogIn(hub.app)
      await setLocale(user, 'es')
      expect((await page('/forgot-password', { 'accept-language': 'en' })).headers['content-language']).toBe('en')
      expect((await page('/forgot-password', { 'accept-language': 'es' })).body).toContain('<h1>Restablece tu contraseña</h1>')
    })

    it('/account in Spanish, with the selected language the account one', async () => {
      const user = await signUpAndLogIn(hub.app)
      await setLocale(user, 'es')
      const body = (await page('/account', pageCookies(user))).body
      expect(body).toContain('<h1>Tu cuenta</h1>')
      expect(body).toMatch(/<option value="es" lang="es" selected>Español<\/option>/)
      expect(body).toContain('data-msg-invalid-credentials="La contraseña actual no es correcta."')
    })
  })

  it('every account page carries the strict CSP, and its one script tag the response nonce', async () => {
    const user = await signUpAndLogIn(hub.app)
    for (const [url, headers] of [...ACCOUNT_PAGES.map((path) => [path, {}] as const), ['/account', pageCookies(user)] as const]) {
      const response = await page(url, headers)
      expect(response.statusCode, url).toBe(200)
      expectStrictPageCsp(response, url)
    }
  })
})

describe('account pages with an external provider', () => {
  const [database] = databasesUnderTest()
  const idp = useHubWithExternalProvider(database!)

  let signedIn: { cookie: string } | undefined
  /** Once per suite: the hub accepts each ID token once. */
  const signIn = async () => {
    if (signedIn) return signedIn
    signedIn = { cookie: cookieHeader({ 'service-auth-token': cookiesSetBy(await idp.signIn())['service-auth-token']?.value }) }
    return signedIn
  }

  it('serves none of them, signed in or not: 404, as their API', async () => {
    const session = await signIn()
    for (const path of [...ACCOUNT_PAGES, '/account']) {
      for (const headers of [{}, session]) {
        expect((await idp.app.inject({ method: 'GET', url: path, headers })).statusCode, path).toBe(404)
      }
    }
  })

  it('links to none of them: no forgot link on the login page, no Account in the navigation', async () => {
    expect((await idp.app.inject({ method: 'GET', url: '/login' })).body).not.toContain('/forgot-password')
    const dashboard = await idp.app.inject({ method: 'GET', url: '/dashboard', headers: await signIn() })
    expect(dashboard.statusCode).toBe(200)
    expect(dashboard.body).toContain('<a href="/export">Export</a>')
    expect(dashboard.body).not.toContain('href="/account"')
  })
})
