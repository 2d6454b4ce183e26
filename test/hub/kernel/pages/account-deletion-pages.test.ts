import { describe, expect, it } from 'vitest'
import { WRONG_CURRENT_PASSWORD } from '../../../../src/hub/kernel/sessions/current-password.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useHubWithExternalProvider } from '../../../helpers/external-provider.js'
import { cookieHeader, cookiesSetBy, pageCookies, signUpAndLogIn, useHubApp } from '../../../helpers/hub-app.js'


/** "Delete my account" as the server renders it; the browser test drives it. */
describe('account deletion on the pages', () => {
  const [database] = databasesUnderTest()
  const hub = useHubApp(database!)
  const page = (url: string, headers: Record<string, string> = {}) => hub.app.inject({ method: 'GET', url, headers })

  it('/account says what is erased and what is kept, and asks for the password; a wrong one is the form\'s 401', async () => {
    const user = await signUpAndLogIn(hub.app)
    const body = (await page('/account', pageCookies(user))).body
    expect(body).toContain('<h2 id="account-deletion-heading">Delete my account</h2>')
    expect(body).toContain(
      "<p>Deleting your account erases, at once and for good: your account and profile, every session, your privacy settings and consent decisions, your activity history, and what the family's applications hold about you, such as your tasks and access in the task manager.</p>"
    )
    expect(body).toContain('<p>We keep one record that an account was deleted: its id and the time, nothing else. A confirmation is mailed to your address before it is erased.</p>')
    expect(body).toContain(`data-form="account-deletion" aria-labelledby="account-deletion-heading" data-wrong-password-error="${WRONG_CURRENT_PASSWORD}"`)
    expect(body).toContain('<label for="deletion-password">Current password</label><input id="deletion-password" name="password" type="password" autocomplete="current-password" required/>')
    expect(body).toContain('<button type="submit" class="danger-button">Delete my account for good</button>')
    expect(body).not.toContain('data-action="sign-in-again"')
  })

  it('in Spanish for an account whose language is Spanish', async () => {
    const user = await signUpAndLogIn(hub.app)
    const saved = await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: user.headers, payload: { locale: 'es' } })
    expect(saved.statusCode).toBe(200)
    const body = (await page('/account', pageCookies(user))).body
    expect(body).toContain('<h2 id="account-deletion-heading">Eliminar mi cuenta</h2>')
    expect(body).toContain('como tus tareas y tu acceso en el gestor de tareas.')
    expect(body).toContain('su identificador y la hora, nada más.')
    expect(body).toContain('<button type="submit" class="danger-button">Eliminar mi cuenta para siempre</button>')
  })

  it('after the deletion the login page says so, in either language', async () => {
    expect((await page('/login?notice=account-deleted')).body).toContain('<p class="notice" role="status">Your account was deleted. A confirmation is on its way to your address.</p>')
    expect((await page('/login?notice=account-deleted', { 'accept-language': 'es' })).body).toContain('Tu cuenta se eliminó.')
  })
})

describe('account deletion on the pages with an external provider', () => {
  const [database] = databasesUnderTest()
  const idp = useHubWithExternalProvider(database!)

  it('the security page offers it without a password: it takes a recent sign-in, and offers to sign in again', async () => {
    const response = await idp.signIn()
    const cookie = cookieHeader({ 'service-auth-token': cookiesSetBy(response)['service-auth-token']?.value })
    const body = (await idp.app.inject({ method: 'GET', url: '/account/security', headers: { cookie } })).body
    expect(body).toContain('<h2 id="account-deletion-heading">Delete my account</h2>')
    expect(body).not.toContain('data-wrong-password-error')
    expect(body).not.toContain('name="password"')
    expect(body).toContain('<p class="hint">Deleting takes a sign-in less than 10 minutes old.</p>')
    expect(body).toContain('data-msg-sign-in-again="Your sign-in is more than 10 minutes old: sign in again, then delete your account within 10 minutes."')
    expect(body).toContain('<button type="button" class="link-button" data-action="sign-in-again">Sign in again</button>')
  })
})
