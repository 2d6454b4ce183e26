import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { chromiumUnderTest, keyboardWalk, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { useCheckedTabs, useHubInBrowser } from '../../../helpers/hub-in-browser.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const withChromium = chromiumUnderTest()
const NEW_PASSWORD = 'a fresh and long passphrase'

/**
 * The account pages in headless Chromium against a hub listening on loopback, whose mail goes to a
 * real SMTP server the test runs: the links a person follows are the ones the mails carry. Every
 * page visited is scanned by axe-core and walked by keyboard, and no CSP violation may occur.
 */
describe.skipIf(!withChromium)('account pages in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const smtp = useSmtpServer()
  const hub = useHubInBrowser(database!, { hub: () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }) })
  const newTab = useCheckedTabs(hub)
  const expectAccessible = async (tab: Page) => {
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
    expect(await keyboardWalk(tab), tab.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const signUp = async (email: string) => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    expect(response.statusCode, response.body).toBe(200)
  }
  const signIn = async (tab: Page, email: string, password: string) => {
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(password)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
  }
  /** The token of the newest mail to `email` linking to `path`. */
  const mailedToken = async (email: string, path: string, count: number) => {
    const mails = await mailsTo(smtp.server, email, count)
    return linkToken(mails.filter((mail) => mail.text?.includes(`${path}#token=`)).at(-1), path)
  }

  it('resets a forgotten password from the mailed link: the new password signs in, the old one is refused; the first reset of an unconfirmed address says what it removed', async () => {
    const email = `reset-${process.pid}@example.com`
    await signUp(email)
    const tab = await newTab()
    await tab.goto('/login')
    await tab.getByRole('link', { name: 'Forgot your password?' }).click()
    await tab.waitForURL('**/forgot-password')
    await expectAccessible(tab)
    await tab.getByLabel('Email').fill(email)
    await tab.getByRole('button', { name: 'Send the link' }).click()
    await tab.getByText(`If ${email} belongs to an account, a link is on its way to it.`).waitFor()

    // The sign-up's verification mail came first; the reset is the second.
    const token = await mailedToken(email, '/reset-password', 2)
    // The link as mailed: the address beside the token, for password managers.
    await tab.goto(`/reset-password#token=${token}&email=${encodeURIComponent(email)}`)
    // The token and the address leave the address bar at once.
    await tab.waitForURL((url) => url.pathname === '/reset-password' && url.hash === '')
    expect(await tab.evaluate(() => location.href)).toBe(`${hub.origin}/reset-password`)
    // A password manager files the new password under the account the link came for.
    expect(await tab.locator('form[data-form="reset-password"] input[autocomplete="username"]').inputValue()).toBe(email)
    await expectAccessible(tab)
    await tab.getByLabel('New password').fill(NEW_PASSWORD)
    await tab.getByRole('button', { name: 'Change password' }).click()
    // The address had not been confirmed: this reset was its first proof, and the page says what went with it.
    await tab.waitForURL('**/login?notice=password-reset-first-proof')
    await tab.getByText('Your password was changed and your address is confirmed now. It had not been confirmed before').waitFor()
    await expectAccessible(tab)
    await signIn(tab, email, NEW_PASSWORD)
    await tab.waitForURL('**/dashboard')

    const elsewhere = await newTab()
    await elsewhere.goto('/login')
    await signIn(elsewhere, email, GOOD_PASSWORD)
    await elsewhere.getByText('Wrong email or password.').waitFor()

    // The link worked once: opened again, it is refused, with the way to a new one.
    await elsewhere.goto(`/reset-password#token=${token}`)
    await elsewhere.getByLabel('New password').fill('yet another long passphrase')
    await elsewhere.getByRole('button', { name: 'Change password' }).click()
    await elsewhere.getByText('This link is invalid, used or expired.').waitFor()
    await elsewhere.getByRole('link', { name: 'Ask for a new one' }).click()
    await elsewhere.waitForURL('**/forgot-password')

    // The next reset finds the address confirmed: the usual page.
    await elsewhere.getByLabel('Email').fill(email)
    await elsewhere.getByRole('button', { name: 'Send the link' }).click()
    await elsewhere.goto(`/reset-password#token=${await mailedToken(email, '/reset-password', 4)}`)
    await elsewhere.getByLabel('New password').fill('yet another long passphrase')
    await elsewhere.getByRole('button', { name: 'Change password' }).click()
    await elsewhere.waitForURL('**/login?notice=password-reset')
    await elsewhere.getByText('Your password was changed and every session of your account was signed out.').waitFor()
  })

  it('a reset page opened without its token says the link is needed', async () => {
    const tab = await newTab()
    await tab.goto('/reset-password')
    await tab.getByText('This page needs the link from your mail.').waitFor()
  })

  it('confirms the address from the sign-up mail opened signed out: the token survives the trip through the login page', async () => {
    const email = `verify-${process.pid}@example.com`
    await signUp(email)
    const token = await mailedToken(email, '/verify-email', 1)
    const tab = await newTab()
    await tab.goto(`/verify-email#token=${token}`)
    await tab.waitForURL((url) => url.pathname === '/verify-email' && url.hash === '')
    const signInFirst = tab.getByText('Sign in to confirm your address; you come back here afterwards.')
    await signInFirst.waitFor()
    await expectAccessible(tab)
    await tab.getByRole('link', { name: 'Sign in', exact: true }).click()
    await tab.waitForURL('**/login?next=%2Fverify-email')
    expect(tab.url()).not.toContain(token)
    await signIn(tab, email, GOOD_PASSWORD)
    await tab.waitForURL('**/verify-email')
    await tab.getByText('Your email address is confirmed.').waitFor()
    expect(await tab.evaluate(() => JSON.stringify(sessionStorage))).toBe('{}')
    await expectAccessible(tab)
    await tab.getByRole('link', { name: 'Go to your account' }).click()
    await tab.waitForURL('**/account')
    expect(await tab.locator('[data-email-verified]').textContent()).toBe('Confirmed')
  })

  it('changes the display name, the password (a wrong current one refused on the form) and the address (a taken one refused), and switches the account to Spanish', async () => {
    const email = `account-${process.pid}@example.com`
    await signUp(email)
    const tab = await newTab()
    await tab.goto('/login')
    await signIn(tab, email, GOOD_PASSWORD)
    await tab.waitForURL('**/dashboard')
    await tab.getByRole('link', { name: 'Account', exact: true }).click()
    await tab.waitForURL('**/account')
    await expectAccessible(tab)

    await tab.getByLabel('Display name').fill('Ada Lovelace')
    await tab.getByRole('button', { name: 'Save profile' }).click()
    await tab.getByText('Saved.').waitFor()
    await tab.reload()
    expect(await tab.getByLabel('Display name').inputValue()).toBe('Ada Lovelace')

    const passwordForm = tab.locator('form[data-form="password-change"]')
    await passwordForm.getByLabel('Current password').fill('not my password at all')
    await passwordForm.getByLabel('New password').fill(NEW_PASSWORD)
    await passwordForm.getByRole('button', { name: 'Change password' }).click()
    await passwordForm.getByText('The current password is wrong.').waitFor()
    expect(new URL(tab.url()).pathname).toBe('/account')
    await passwordForm.getByLabel('Current password').fill(GOOD_PASSWORD)
    await passwordForm.getByLabel('New password').fill(NEW_PASSWORD)
    await passwordForm.getByRole('button', { name: 'Change password' }).click()
    await passwordForm.getByText('Your password was changed. Your other sessions were signed out.').waitFor()
    expect(await passwordForm.getByLabel('New password').inputValue()).toBe('')

    const taken = `taken-${process.pid}@example.com`
    await signUp(taken)
    const addressForm = tab.locator('form[data-form="email-change"]')
    await addressForm.getByLabel('New address').fill(taken)
    await addressForm.getByLabel('Current password').fill(NEW_PASSWORD)
    await addressForm.getByRole('button', { name: 'Send a confirmation link' }).click()
    await addressForm.getByText('Another account already uses this address.').waitFor()
    const moved = `moved-${process.pid}@example.com`
    await addressForm.getByLabel('New address').fill(moved)
    await addressForm.getByLabel('Current password').fill(NEW_PASSWORD)
    await addressForm.getByRole('button', { name: 'Send a confirmation link' }).click()
    await addressForm.getByText(`A link is on its way to ${moved}. Your address changes once you open it.`).waitFor()
    await tab.goto(`/confirm-email#token=${await mailedToken(moved, '/confirm-email', 1)}`)
    await tab.getByText('Your new address is confirmed. Sign in with it from now on.').waitFor()
    await expectAccessible(tab)
    await tab.getByRole('link', { name: 'Go to your account' }).click()
    await tab.getByText(moved, { exact: true }).waitFor()

    await tab.getByLabel('Language', { exact: true }).selectOption('es')
    await tab.getByRole('button', { name: 'Save profile' }).click()
    await tab.waitForSelector('html[lang="es"]')
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Tu cuenta')
    await expectAccessible(tab)

    const elsewhere = await newTab()
    await elsewhere.goto('/login')
    await signIn(elsewhere, moved, NEW_PASSWORD)
    await elsewhere.waitForURL('**/dashboard')
    // No switch was used in this browser: the account's language decides.
    expect(await elsewhere.locator('html').getAttribute('lang')).toBe('es')
  })
})
