import fs from 'node:fs'
import { Secret, TOTP } from 'otpauth'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { RECENT_SIGN_IN_MS } from '../../../../src/hub/kernel/sessions/recent-sign-in.js'
import { chromiumUnderTest, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { confirmAddress } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, signUpAndLogIn, testClock, uniqueEmail } from '../../../helpers/hub-app.js'
import { useCheckedTabs, useHubInBrowser } from '../../../helpers/hub-in-browser.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

const withChromium = chromiumUnderTest()
const NEW_PASSWORD = 'another long and fresh passphrase'

/** The code an authenticator app holding `secret` shows at `at`. */
const appCode = (secret: string, at: Date) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at.getTime() })

/**
 * /account/security, the login page's second step and passkey, and the recent-sign-in dialog in
 * headless Chromium, against a hub in this process at http://localhost:PORT (a passkey's RP id
 * must be a host name) whose clock the test moves. Every new page state is scanned by axe-core,
 * and no CSP violation may occur.
 */
describe.skipIf(!withChromium)('security settings in a browser', { timeout: 90_000 }, () => {
  const [database] = databasesUnderTest()
  const clock = testClock(new Date())
  const hub = useHubInBrowser(database!, { host: 'localhost', hub: { now: clock.now } })
  const newTab = useCheckedTabs(hub)
  const expectAccessible = async (tab: Page) => {
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
  }
  /** An account whose address is confirmed: no other may add two-step sign-in or a passkey. */
  const signUp = async (email: string) => {
    await confirmAddress(hub.app, hub.handle.db, await signUpAndLogIn(hub.app, email), clock.now())
  }
  const passwordStep = async (tab: Page, email: string, password = GOOD_PASSWORD) => {
    await tab.goto('/login')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(password)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
  }
  const signOut = async (tab: Page) => {
    await tab.getByRole('button', { name: 'Sign out', exact: true }).click()
    await tab.waitForURL('**/login')
  }

  it('turns on two-step sign-in with the QR code’s secret, shows the recovery codes once with a download, then asks for a code or a recovery code at sign-in', async () => {
    const email = uniqueEmail('totp-browser')
    await signUp(email)
    const tab = await newTab()
    await passwordStep(tab, email)
    await tab.waitForURL('**/dashboard')
    await tab.getByRole('link', { name: 'Security', exact: true }).click()
    await tab.waitForURL('**/account/security')
    await expectAccessible(tab)

    await tab.getByRole('button', { name: 'Set up two-step sign-in' }).click()
    const secretText = tab.locator('[data-totp-secret]')
    await secretText.waitFor()
    const secret = (await secretText.textContent()) ?? ''
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const qr = tab.getByRole('img', { name: 'QR code that adds your Hearth account to an authenticator app' })
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/)
    // The image decoded: an SVG the CSP let through, drawn at its size.
    expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
    await expectAccessible(tab)

    const farOff = new Date(clock.now().getTime() + 10 * TOTP_STEP_MS)
    await tab.getByLabel('Code from the app').fill(appCode(secret, farOff))
    await tab.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
    await tab.getByText('That code is not right. Check that your phone shows the right time').waitFor()
    await tab.getByLabel('Code from the app').fill(appCode(secret, clock.now()))
    await tab.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
    await tab.getByRole('heading', { name: 'Your recovery codes' }).waitFor()
    await tab.getByText('Two-step sign-in is on.', { exact: true }).waitFor()
    // One state, before any reload: the "off" sentence and its set-up button have given way to "on".
    await tab.getByText(/^Two-step sign-in is on: signing in/).waitFor()
    expect(await tab.getByText(/Two-step sign-in is off/).count()).toBe(0)
    expect(await tab.getByRole('button', { name: 'Set up two-step sign-in' }).count()).toBe(0)
    const recoveryCodes = await tab.locator('[data-recovery-code-list] li').allTextContents()
    expect(recoveryCodes).toHaveLength(10)
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    await expectAccessible(tab)
    const [file] = await Promise.all([tab.waitForEvent('download'), tab.getByRole('button', { name: 'Download as a text file' }).click()])
    expect(file.suggestedFilename()).toBe('hearth-recovery-codes.txt')
    expect(fs.readFileSync(await file.path(), 'utf8')).toBe(['Hearth recovery codes. Each works once.', '', ...recoveryCodes, ''].join('\n'))
    // Shown once: the page the server renders holds none of them.
    await tab.getByRole('link', { name: 'I have saved them' }).click()
    await tab.getByText('Recovery codes left: 10.').waitFor()
    expect(await tab.content()).not.toContain(recoveryCodes[0])

    await signOut(tab)
    await passwordStep(tab, email)
    const codeField = tab.getByLabel('Code', { exact: true })
    await codeField.waitFor()
    expect(await codeField.evaluate((field) => field === document.activeElement)).toBe(true)
    await expectAccessible(tab)
    // The code of the step just used is spent: the app's next one signs in.
    clock.advance(TOTP_STEP_MS)
    await codeField.fill(appCode(secret, clock.now()))
    await tab.getByRole('button', { name: 'Continue' }).click()
    await tab.waitForURL('**/dashboard')

    await signOut(tab)
    await passwordStep(tab, email)
    await tab.getByRole('button', { name: 'Use a recovery code instead' }).click()
    await tab.getByLabel('Recovery code').fill('aaaa-bbbb-cccc-dddd')
    await tab.getByRole('button', { name: 'Continue' }).click()
    await tab.getByText('That recovery code is wrong or was used already.').waitFor()
    await expectAccessible(tab)
    await tab.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '')
    await tab.getByRole('button', { name: 'Continue' }).click()
    await tab.waitForURL('**/dashboard')
    await tab.goto('/account/security')
    await tab.getByText('Recovery codes left: 9.').waitFor()

    // Turning it off later needs a recent sign-in: the dialog takes a code of the app.
    clock.advance(RECENT_SIGN_IN_MS + 60_000)
    await tab.getByRole('button', { name: 'Turn off two-step sign-in' }).click()
    const dialog = tab.getByRole('dialog', { name: 'Confirm it is you' })
    await dialog.getByLabel('Code from your authenticator app').fill(appCode(secret, clock.now()))
    await dialog.getByRole('button', { name: 'Confirm with the code' }).click()
    await tab.getByText(/^Two-step sign-in is off\./).waitFor()
  })

  it('adds a passkey through the browser’s authenticator on /account/security, then signs in with it on /login', async () => {
    const email = uniqueEmail('passkey-page')
    await signUp(email)
    const tab = await newTab()
    const devtools = await tab.context().newCDPSession(tab)
    await devtools.send('WebAuthn.enable')
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true }
    })
    await passwordStep(tab, email)
    await tab.waitForURL('**/dashboard')
    await tab.goto('/account/security')
    await tab.getByText('You have no passkey yet.').waitFor()
    await tab.getByLabel('Name (optional)').fill('This browser')
    await tab.getByRole('button', { name: 'Create the passkey' }).click()
    const renameField = tab.getByLabel('New name for This browser')
    await renameField.waitFor()
    expect(await renameField.inputValue()).toBe('This browser')
    await tab.getByRole('cell', { name: 'Never' }).waitFor()
    await expectAccessible(tab)

    await renameField.fill('Laptop')
    await tab.getByRole('button', { name: 'Rename (This browser)' }).click()
    await tab.getByLabel('New name for Laptop').waitFor()

    await signOut(tab)
    await expectAccessible(tab)
    await tab.goto('/login?next=%2Fprivacy')
    await tab.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await tab.waitForURL('**/privacy')
    await tab.goto('/account/security')
    expect(await tab.getByRole('cell', { name: 'Never' }).count()).toBe(0)

    // Removing it later needs a recent sign-in: the dialog offers the passkey itself.
    clock.advance(RECENT_SIGN_IN_MS + 60_000)
    await tab.getByRole('button', { name: 'Remove (Laptop)' }).click()
    const dialog = tab.getByRole('dialog', { name: 'Confirm it is you' })
    await dialog.getByRole('button', { name: 'Use a passkey' }).click()
    await tab.getByText('You have no passkey yet.').waitFor()
  })

  it('asks a session signed in over 10 minutes ago to confirm it is them before a password change, in a dialog, and then changes it', async () => {
    const email = uniqueEmail('sudo-browser')
    await signUp(email)
    const tab = await newTab()
    await passwordStep(tab, email)
    await tab.waitForURL('**/dashboard')
    clock.advance(RECENT_SIGN_IN_MS + 60_000)
    await tab.goto('/account')
    const fillPasswordForm = async () => {
      await tab.locator('#current-password').fill(GOOD_PASSWORD)
      await tab.getByLabel('New password').fill(NEW_PASSWORD)
      await tab.getByRole('button', { name: 'Change password' }).click()
    }
    await fillPasswordForm()
    const dialog = tab.getByRole('dialog', { name: 'Confirm it is you' })
    await dialog.waitFor()
    expect(tab.url()).toBe(`${hub.origin}/account`)
    expect(await dialog.getByLabel('Password', { exact: true }).evaluate((field) => field === document.activeElement)).toBe(true)
    await expectAccessible(tab)

    // Dismissed: nothing changes, the form says so, and focus is back on the form's button.
    await tab.keyboard.press('Escape')
    await tab.getByText('Nothing was changed: the change needs you to confirm it is you.').waitFor()
    expect(await dialog.count()).toBe(0)
    expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe('Change password')

    await fillPasswordForm()
    await dialog.getByLabel('Password', { exact: true }).fill('not the password at all')
    await dialog.getByRole('button', { name: 'Confirm with the password' }).click()
    await dialog.getByText('The current password is wrong.').waitFor()
    await dialog.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD)
    await dialog.getByRole('button', { name: 'Confirm with the password' }).click()
    await tab.getByText('Your password was changed. Your other sessions were signed out.').waitFor()
    expect(await dialog.count()).toBe(0)

    await signOut(tab)
    await passwordStep(tab, email, NEW_PASSWORD)
    await tab.waitForURL('**/dashboard')
  })

  it('on a page from before two-step sign-in was turned on elsewhere, the dialog’s password is refused and the page says to reload', async () => {
    const email = uniqueEmail('stale-dialog')
    const elsewhere = await signUpAndLogIn(hub.app, email)
    await confirmAddress(hub.app, hub.handle.db, elsewhere, clock.now())
    const tab = await newTab()
    await passwordStep(tab, email)
    await tab.waitForURL('**/dashboard')
    await tab.goto('/account')
    await turnOnTwoStep(hub.app, elsewhere, clock.now())
    clock.advance(RECENT_SIGN_IN_MS + 60_000)
    await tab.locator('#current-password').fill(GOOD_PASSWORD)
    await tab.getByLabel('New password').fill(NEW_PASSWORD)
    await tab.getByRole('button', { name: 'Change password' }).click()
    const dialog = tab.getByRole('dialog', { name: 'Confirm it is you' })
    await dialog.getByLabel('Password', { exact: true }).fill(GOOD_PASSWORD)
    await dialog.getByRole('button', { name: 'Confirm with the password' }).click()
    await dialog.getByText('Two-step sign-in is on for your account: reload the page to confirm with a code from your authenticator app or a passkey.').waitFor()
    await expectAccessible(tab)
    await tab.reload()
    await tab.getByRole('button', { name: 'Change password' }).waitFor()
    expect(await tab.locator('template[data-recent-sign-in]').evaluate((template) => template.innerHTML)).not.toContain('reauthenticate-password')
  })
})
