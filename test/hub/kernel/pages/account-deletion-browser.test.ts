import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { mailsTo, signUpConfirmedAndLogIn, useSmtpServer } from '../../../helpers/account-mail.js'
import { chromiumUnderTest, keepScreenshots, keyboardWalk, recordCspViolations, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { IDP_AUDIENCE, IDP_ISSUER, IDP_USER, externalProvider } from '../../../helpers/external-provider.js'
import { RECENT_SIGN_IN_MS } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import { GOOD_PASSWORD, cookiesSetBy, testClock } from '../../../helpers/hub-app.js'
import { useHubInBrowser } from '../../../helpers/hub-in-browser.js'
import { type SigningKey, newSigningKey, signToken, startJwksServer } from '../../../helpers/jwks-server.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

const withChromium = chromiumUnderTest()
const DELETED_NOTICE = 'Your account was deleted. A confirmation is on its way to your address.'

/**
 * "Delete my account" in headless Chromium against a hub on loopback whose clock the test moves,
 * with two tabs of one browser open.
 */
describe.skipIf(!withChromium)('account deletion in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const smtp = useSmtpServer()
  // Moved by the test past the 10 minutes a sign-in counts as recent.
  const clock = testClock(new Date())
  const suite = useHubInBrowser(database!, { hub: () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50, now: clock.now }) })
  // Both tabs share one browser context: the second must follow the first out when the account goes.
  let context: BrowserContext | undefined
  const cspViolations: string[] = []

  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots(suite.browser.contexts().flatMap((open) => open.pages()), task.name))
  })

  afterEach(async () => {
    await context?.close()
    expect(cspViolations).toEqual([])
  })

  const newTab = async () => {
    const tab = await context!.newPage()
    await recordCspViolations(tab, cspViolations)
    return tab
  }
  const signIn = async (tab: Page, email: string) => {
    await tab.goto('/login')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  it('asks a sign-in over 10 minutes old to confirm it is them in the dialog (a code, two-step sign-in being on), then a wrong password is told on the form; the right one deletes the account, every tab goes to the login page, and signing in fails', async () => {
    const email = `delete-${process.pid}@example.com`
    const { secret } = await turnOnTwoStep(suite.app, await signUpConfirmedAndLogIn(suite.app, suite.handle.db, clock.now(), email), clock.now())
    context = await suite.browser.newContext({ baseURL: suite.origin, locale: 'en-US' })
    const tab = await newTab()
    await signIn(tab, email)
    // The code that turned two-step sign-in on is spent: the app's next one signs in.
    clock.advance(TOTP_STEP_MS)
    await tab.getByLabel('Code', { exact: true }).fill(totpCode(secret, clock.now()))
    await tab.getByRole('button', { name: 'Continue' }).click()
    await tab.waitForURL('**/dashboard')
    const otherTab = await newTab()
    await otherTab.goto('/dashboard')
    clock.advance(RECENT_SIGN_IN_MS + 60_000)
    await tab.goto('/account')
    expect(await seriousAccessibilityViolations(tab)).toEqual([])
    expect(await keyboardWalk(tab)).toEqual({ unreached: [], withoutFocusOutline: [] })

    // The password alone is not enough: the page asks for a fresh proof, and dismissed, nothing goes.
    const form = tab.locator('form[data-form="account-deletion"]')
    const submit = () => form.getByRole('button', { name: 'Delete my account for good' }).click()
    const dialog = tab.getByRole('dialog', { name: 'Confirm it is you' })
    await form.getByLabel('Current password').fill(GOOD_PASSWORD)
    await submit()
    await dialog.waitFor()
    expect(await seriousAccessibilityViolations(tab)).toEqual([])
    // Two-step sign-in being on, the password alone is no proof: the dialog asks for the code, not for it.
    expect(await dialog.getByLabel('Code from your authenticator app').evaluate((field) => field === document.activeElement)).toBe(true)
    expect(await dialog.getByLabel('Password', { exact: true }).count()).toBe(0)
    expect(await dialog.getByRole('button', { name: 'Confirm with the password' }).count()).toBe(0)
    await tab.keyboard.press('Escape')
    await form.getByText('Nothing was changed: the change needs you to confirm it is you.').waitFor()
    expect(await suite.handle.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1)

    // Confirmed with a code of the app, the deletion is sent again, and its wrong password is the form's.
    await form.getByLabel('Current password').fill('not my password at all')
    await submit()
    await dialog.getByLabel('Code from your authenticator app').fill(totpCode(secret, clock.now()))
    await dialog.getByRole('button', { name: 'Confirm with the code' }).click()
    await form.getByText('The current password is wrong.').waitFor()
    expect(await dialog.count()).toBe(0)
    expect(new URL(tab.url()).pathname).toBe('/account')
    await tab.reload()
    await tab.getByRole('heading', { name: 'Your account' }).waitFor()

    // Within 10 minutes of the code, the right password deletes without asking again.
    await form.getByLabel('Current password').fill(GOOD_PASSWORD)
    await submit()
    for (const open of [tab, otherTab]) {
      await open.waitForURL('**/login?notice=account-deleted')
      await open.getByText(DELETED_NOTICE).waitFor()
    }
    expect(await seriousAccessibilityViolations(tab)).toEqual([])
    await vi.waitFor(async () => expect((await mailsTo(smtp.server, email)).map((mail) => mail.subject)).toContain('Your Hearth account was deleted'), { timeout: 10_000 })

    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
    await tab.getByText('Wrong email or password.').waitFor()
    await tab.goto('/account')
    await tab.waitForURL('**/login?next=%2Faccount')
  })
})

/**
 * Under an external provider the deletion takes a sign-in less than 10 minutes old: an older one is
 * told to sign in again, and offered the way to.
 */
describe.skipIf(!withChromium)('account deletion in a browser with an external provider', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const clock = testClock(new Date())
  let idpKey: SigningKey
  let idp: Awaited<ReturnType<typeof startJwksServer>>
  const cspViolations: string[] = []

  beforeAll(async () => {
    idpKey = await newSigningKey('idp-key-1', 'ES256')
    idp = await startJwksServer([idpKey])
  })
  afterAll(async () => {
    await idp?.close()
  })
  const suite = useHubInBrowser(database!, { hub: () => ({ config: externalProvider(idp.url), now: clock.now }) })

  it('a sign-in older than 10 minutes is told to sign in again, and the button leads there, coming back to the page', async () => {
    const idToken = await signToken(idpKey, { iss: IDP_ISSUER, aud: IDP_AUDIENCE, sub: IDP_USER, email: 'ada@idp.test' }, '1h')
    const signedIn = await suite.app.inject({ method: 'POST', url: '/api/auth/set-cookie', payload: { userId: IDP_USER, idToken } })
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const cookies = cookiesSetBy(signedIn)
    const context = await suite.browser.newContext({ baseURL: suite.origin, locale: 'en-US' })
    try {
      await context.addCookies(
        (['service-auth-token', 'service-csrf-token'] as const).map((name) => ({ name, value: cookies[name]?.value ?? '', url: suite.origin, httpOnly: cookies[name]?.httpOnly ?? false }))
      )
      const tab = await context.newPage()
      await recordCspViolations(tab, cspViolations)
      clock.advance(11 * 60_000)
      await tab.goto('/account/security')
      expect(await seriousAccessibilityViolations(tab)).toEqual([])
      const form = tab.locator('form[data-form="account-deletion"]')
      await form.getByText('Deleting takes a sign-in less than 10 minutes old.').waitFor()
      await form.getByRole('button', { name: 'Delete my account for good' }).click()
      await form.getByText('Your sign-in is more than 10 minutes old: sign in again, then delete your account within 10 minutes.').waitFor()
      expect(new URL(tab.url()).pathname).toBe('/account/security')
      await tab.getByRole('button', { name: 'Sign in again' }).click()
      await tab.waitForURL('**/login?next=%2Faccount%2Fsecurity')
      expect(cspViolations).toEqual([])
    } finally {
      await context.close()
    }
  })
})
