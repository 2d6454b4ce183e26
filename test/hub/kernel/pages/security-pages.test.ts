import { describe, expect, it } from 'vitest'
import { WRONG_CURRENT_PASSWORD } from '../../../../src/hub/kernel/sessions/current-password.js'
import { CHALLENGE_INVALID } from '../../../../src/hub/features/two-step/second-factor-route.js'
import { WRONG_CODE } from '../../../../src/hub/features/two-step/two-step.js'
import type { App } from '../../../../src/shared/http/server.js'
import { confirmAddress, signUpConfirmedAndLogIn } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { HUB_ORIGIN, type SignedIn, expectStrictPageCsp, pageCookies, sessionHeaders, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'
import { type CreationOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { turnOnTwoStep } from '../../../helpers/two-step.js'

const SECURITY = '/account/security'


async function addPasskey(app: App, user: SignedIn, name: string) {
  const options = await app.inject({ method: 'POST', url: '/api/account/passkeys/options', headers: user.headers })
  expect(options.statusCode, options.body).toBe(200)
  const response = softwareAuthenticator(HUB_ORIGIN).create(options.json<CreationOptionsJson>())
  const added = await app.inject({ method: 'POST', url: '/api/account/passkeys', headers: user.headers, payload: { response, name } })
  expect(added.statusCode, added.body).toBe(201)
}

/** /account/security and the login page's second step and passkey through the hub's whole pipeline. */
describe('security settings pages', () => {
  const [database] = databasesUnderTest()
  const hub = useHubApp(database!)
  const page = (url: string, headers: Record<string, string> = {}) => hub.app.inject({ method: 'GET', url, headers })

  it('sends a signed-out visitor to the login page, coming back here afterwards', async () => {
    const response = await page(SECURITY)
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/login?next=%2Faccount%2Fsecurity')
  })

  it('shows a new account its sessions, two-step sign-in off and no passkey; the secret and codes are only templates for the script', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, new Date())
    const response = await page(SECURITY, pageCookies(user))
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const { body } = response
    expect(body).toContain('<h1>Security</h1>')
    expect(body).toContain('<h2 id="sessions-heading">Your active sessions</h2>')
    expect(body).toContain('<strong class="badge">This session</strong>')
    expect(body).toContain('data-two-step="off"')
    expect(body).toContain('<button type="button" data-action="totp-begin">Set up two-step sign-in</button>')
    expect(body).not.toContain('data-action="totp-disable"')
    expect(body).toMatch(/<template data-totp-setup="true"><div class="panel" tabindex="-1"><h3 id="totp-setup-heading">Scan this code with your authenticator app<\/h3><img class="totp-qr" data-totp-qr="true" alt="QR code that adds your Hearth account to an authenticator app"/)
    expect(body).toContain('<label for="totp-code">Code from the app</label><input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required aria-describedby="totp-code-hint"/>')
    expect(body).toContain('<template data-recovery-codes="true">')
    expect(body).toContain('<ol class="recovery-code-list" data-recovery-code-list="true"></ol>')
    expect(body).toContain('data-action="download-recovery-codes" data-file-heading="Hearth recovery codes. Each works once."')
    expect(body).toContain('<p>You have no passkey yet.</p>')
    expect(body).toContain('data-form="passkey-add" data-needs-webauthn="true"')
    expect(body).toContain('<label for="passkey-name">Name (optional)</label>')
    // The dialog asks for the password only: no app, no passkey to confirm with yet.
    expect(body).toContain('<template data-recent-sign-in="true"><dialog class="dialog" aria-labelledby="reauth-heading" aria-describedby="reauth-intro"')
    expect(body).toContain(`data-form="reauthenticate-password" data-refusal="${WRONG_CURRENT_PASSWORD}"`)
    expect(body).toContain(
      `<input type="email" name="username" autocomplete="username" value="${user.email}" hidden/><label for="reauth-password">Password</label><input id="reauth-password" name="password" type="password" autocomplete="current-password" required autofocus/>`
    )
    expect(body).not.toContain('data-form="reauthenticate-code"')
    expect(body).not.toContain('data-form="reauthenticate-passkey"')
  })

  it('with two-step sign-in on and a passkey: codes left, regenerate and turn off, the passkey listed, and both offered in the dialog', async () => {
    const user = await signUpConfirmedAndLogIn(hub.app, hub.handle.db, new Date())
    await turnOnTwoStep(hub.app, user, new Date())
    await addPasskey(hub.app, user, 'Work <laptop>')
    const { body } = await page(SECURITY, pageCookies(user))
    expect(body).toContain('data-two-step="on"')
    // A 409 here means another window changed it: the section words it so, not as a taken address.
    expect(body).toContain('data-msg-email-taken="Two-step sign-in was changed in another window. Reload this page to see it as it is now."')
    expect(body).toContain('Two-step sign-in is on: signing in with your password also asks for a code from your authenticator app.')
    expect(body).toContain('<p>Recovery codes left: 10.</p>')
    expect(body).toContain('data-action="recovery-codes-regenerate">Make new recovery codes</button>')
    expect(body).toContain('data-action="totp-disable">Turn off two-step sign-in</button>')
    expect(body).not.toContain('data-action="totp-begin"')
    // The name is escaped, in the rename field and the buttons' accessible names.
    expect(body).toContain('name="name" type="text" value="Work &lt;laptop>" required maxlength="64" autocomplete="off"/>')
    expect(body).toContain('New name for Work &lt;laptop>')
    expect(body).toContain('Remove <span class="visually-hidden">(Work &lt;laptop>)</span>')
    expect(body).toContain('<td data-label="Last used">Never</td>')
    // The dialog offers the code, focused, and the passkey: not the password, which the API refuses alone while two-step sign-in is on.
    expect(body).toContain(
      `data-form="reauthenticate-code" data-refusal="${WRONG_CODE}" data-msg-invalid-credentials="That code is not right."><label for="reauth-code">Code from your authenticator app</label><input id="reauth-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus/>`
    )
    expect(body).toContain('data-form="reauthenticate-passkey" data-needs-webauthn="true"')
    expect(body).not.toContain('data-form="reauthenticate-password"')
    expect(body).not.toContain('id="reauth-password"')
    // /account (the password and address changes, the deletion) asks through the same dialog, with the same ways.
    const account = (await page('/account', pageCookies(user))).body
    expect(account).toContain('<a href="/account/security">Sessions, two-step sign-in and passkeys</a>')
    expect(account).toContain('data-form="reauthenticate-code"')
    expect(account).toContain('data-form="reauthenticate-passkey"')
    expect(account).not.toContain('data-form="reauthenticate-password"')
    expect((await page('/account', pageCookies(user, { lang: 'es' }))).body).toContain('<label for="reauth-code">Código de tu aplicación de autenticación</label>')
  })

  it('to an account whose address is not confirmed, says to confirm it first instead of offering two-step sign-in or a passkey', async () => {
    const user = await signUpAndLogIn(hub.app)
    const confirmFirst =
      '<p data-confirm-address-first="true">Confirm your address first: two-step sign-in and passkeys can be added once the link mailed to it has been opened. <a href="/account">Ask for a new link on your account page</a></p>'
    const { body } = await page(SECURITY, pageCookies(user))
    expect(body).toContain('data-two-step="off"')
    expect(body.split(confirmFirst)).toHaveLength(3)
    expect(body).not.toContain('data-action="totp-begin"')
    expect(body).not.toContain('data-form="passkey-add"')
    const spanish = (await page(SECURITY, pageCookies(user, { lang: 'es' }))).body
    expect(spanish).toContain(
      'Confirma primero tu dirección: la verificación en dos pasos y las llaves de acceso se pueden añadir cuando se haya abierto el enlace que se le envió. <a href="/account">Pide un enlace nuevo en la página de tu cuenta</a>'
    )
    // Once it is confirmed, the page offers both.
    await confirmAddress(hub.app, hub.handle.db, user)
    const confirmed = (await page(SECURITY, pageCookies(user))).body
    expect(confirmed).not.toContain('data-confirm-address-first')
    expect(confirmed).toContain('data-action="totp-begin"')
    expect(confirmed).toContain('data-form="passkey-add"')
  })

  it('is linked from the navigation, the dashboard and the account page', async () => {
    const user = await signUpAndLogIn(hub.app)
    for (const url of ['/dashboard', '/account', '/privacy']) {
      expect((await page(url, pageCookies(user))).body, url).toContain('<a href="/account/security">Security</a>')
    }
    expect((await page('/dashboard', pageCookies(user))).body).toContain('<p><a href="/account/security">Sessions, two-step sign-in and passkeys</a></p>')
  })

  it('speaks Spanish', async () => {
    const user = await signUpAndLogIn(hub.app)
    const response = await page(SECURITY, pageCookies(user, { lang: 'es' }))
    expect(response.headers['content-language']).toBe('es')
    expect(response.body).toContain('<h1>Seguridad</h1>')
    expect(response.body).toContain('<h2 id="two-step-heading">Verificación en dos pasos</h2>')
    expect(response.body).toContain('<h2 id="passkeys-heading">Llaves de acceso</h2>')
    expect(response.body).toContain('<h2 id="reauth-heading">Confirma que eres tú</h2>')
    const login = (await page('/login', { 'accept-language': 'es' })).body
    expect(login).toContain('Iniciar sesión con una llave de acceso')
    expect(login).toContain('Usar un código de recuperación')
  })

  it('the login page offers a passkey, and holds the second step as templates naming the API text of an expired sign-in', async () => {
    const { body } = await page('/login?next=%2Fprivacy')
    expect(body).toContain('<form class="stacked-form" data-form="passkey-sign-in" data-needs-webauthn="true" aria-label="Sign in with a passkey"')
    expect(body).toContain('<button type="submit" class="secondary-button">Sign in with a passkey</button>')
    for (const [kind, field] of [
      ['code', 'code'],
      ['recovery-code', 'recoveryCode']
    ]) {
      const template = new RegExp(`<template data-second-step="${kind}">(.*?)</template>`).exec(body)?.[1] ?? ''
      expect(template, kind).toContain(`data-expired-error="${CHALLENGE_INVALID}"`)
      expect(template, kind).toContain('<input type="hidden" name="next" value="/privacy"/>')
      expect(template, kind).toContain(`name="${field}"`)
    }
    expect(body).toContain('data-action="second-step-switch" data-to="recovery-code">Use a recovery code instead</button>')
  })

  it('every page of it carries the strict CSP, and its one script tag the response nonce', async () => {
    const user = await signUpAndLogIn(hub.app)
    for (const [url, headers] of [
      [SECURITY, pageCookies(user)],
      ['/login', {}]
    ] as const) {
      const response = await page(url, headers)
      expect(response.statusCode, url).toBe(200)
      expectStrictPageCsp(response, url)
    }
  })
})

describe('security settings page with an external provider', () => {
  const [database] = databasesUnderTest()
  const idp = useHubWithExternalProvider(database!)

  const signIn = async () => sessionHeaders(await idp.signIn())

  it('shows the sessions only: two-step sign-in and passkeys are the provider’s, and their API is not served', async () => {
    const session = await signIn()
    const response = await idp.app.inject({ method: 'GET', url: SECURITY, headers: { cookie: session.cookie } })
    expect(response.statusCode).toBe(200)
    expectStrictPageCsp(response, SECURITY)
    expect(response.body).toContain('<h2 id="sessions-heading">Your active sessions</h2>')
    expect(response.body).toContain('is managed by your sign-in provider.')
    for (const absent of ['data-two-step', 'passkeys-heading', 'data-recent-sign-in', 'data-form="passkey-add"']) expect(response.body, absent).not.toContain(absent)
    for (const [method, url] of [
      ['POST', '/api/account/totp'],
      ['POST', '/api/account/passkeys/options'],
      ['GET', '/api/account/passkeys'],
      ['POST', '/api/auth/passkey/options']
    ] as const) {
      expect((await idp.app.inject({ method, url, headers: session })).statusCode, url).toBe(404)
    }
    const login = (await idp.app.inject({ method: 'GET', url: '/login' })).body
    expect(login).not.toContain('passkey-sign-in')
    expect(login).not.toContain('data-second-step')
  })
})
