import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chromiumUnderTest, keepScreenshots, keyboardWalk, launchChromium, recordCspViolations, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { type ServerProcess, freePort, startBuilt } from '../../../helpers/server-process.js'

const withChromium = chromiumUnderTest()

const HUB_ENTRY = 'dist/server/hub.js'

/**
 * The hub as `npm start` runs it, driven by headless Chromium as a person would: one account
 * through every page, in order. Each page visited is scanned by axe-core, and the whole run must
 * meet no CSP violation, in the browser or reported to the hub.
 */
describe.skipIf(!withChromium)('hub pages in a browser', { timeout: 60_000 }, () => {
  let hub: ServerProcess
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let dataDir: string
  let application: Awaited<ReturnType<typeof startApplication>>
  const cspViolations: string[] = []
  const email = `browser-${process.pid}@example.com`

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-browser-'))
    application = await startApplication()
    const port = await freePort()
    // PORT tells the test helper where to wait; HUB_PORT is what the hub listens on.
    hub = await startBuilt(
      HUB_ENTRY,
      {
        PORT: String(port),
        HUB_PORT: String(port),
        HUB_PUBLIC_URL: `http://127.0.0.1:${port}`,
        HUB_APPS: `tasks=${application.url}`,
        DATA_DIR: dataDir
      },
      '/api/health'
    )
    browser = await launchChromium()
    context = await newContext()
    page = await newPage(context)
  })

  afterAll(async () => {
    await browser?.close()
    hub?.child.kill('SIGTERM')
    await hub?.exited
    await application?.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  beforeEach(({ task, onTestFailed }) => {
    // Every context's tabs, not just the shared one: some tests sign in elsewhere in a context of their own.
    onTestFailed(() => keepScreenshots(browser.contexts().flatMap((open) => open.pages()), task.name))
  })

  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  const newContext = () => browser.newContext({ baseURL: hub.url, locale: 'en-US', acceptDownloads: true })
  const newPage = async (inContext: BrowserContext) => {
    const created = await inContext.newPage()
    await recordCspViolations(created, cspViolations)
    return created
  }

  /** Every page a test lands on is checked for accessibility there and then, keyboard included. */
  const expectAccessible = async (on: Page = page) => {
    expect(await seriousAccessibilityViolations(on), on.url()).toEqual([])
    expect(await keyboardWalk(on), on.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const signInAt = async (tab: Page, path: string) => {
    await tab.goto(path)
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  it('opening the dashboard signed out lands on the login page', async () => {
    await page.goto('/dashboard')
    await page.waitForURL('**/login?next=%2Fdashboard')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in')
    await expectAccessible()
  })

  it('signs up from the login page and lands on the dashboard', async () => {
    await page.getByRole('link', { name: 'Create one' }).click()
    await page.waitForURL('**/signup?next=%2Fdashboard')
    await expectAccessible()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(GOOD_PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/dashboard')
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(1)
    expect(await page.locator('tr[data-session="current"]').count()).toBe(1)
    // The sign-up page sent its language, the person's choice: the account keeps it.
    expect((await (await page.request.get('/api/account')).json()) as unknown).toMatchObject({ email, locale: 'en' })
    await expectAccessible()
  })

  it('a password the hub refuses is explained in the page’s language, not as something gone wrong', async () => {
    for (const [locale, words] of [
      ['en-US', 'This password is one of the most common ones, so it is easy to guess. Choose another.'],
      ['es-ES', 'Esta contraseña es de las más comunes, así que es fácil de adivinar. Elige otra.']
    ] as const) {
      const other = await browser.newContext({ baseURL: hub.url, locale })
      const tab = await newPage(other)
      await tab.goto('/signup')
      await tab.locator('#email').fill(`common-${locale}-${email}`)
      await tab.locator('#password').fill('password1')
      await tab.locator('form[data-form="signup"] button[type="submit"]').click()
      await expect.poll(() => tab.locator('form[data-form="signup"] [data-form-message]').textContent(), { timeout: 5_000 }).toBe(words)
      // With the message shown; the keyboard walk of /signup is the sign-up test's.
      expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
      await other.close()
    }
  })

  it('a wrong password is refused on the page, and the right one signs in', async () => {
    const other = await newContext()
    const tab = await newPage(other)
    await tab.goto('/login')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill('not the password at all')
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
    await tab.getByText('Wrong email or password.').waitFor()
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    // Keyboard only: Enter in the field submits the form.
    await tab.getByLabel('Password').press('Enter')
    await tab.waitForURL('**/dashboard')
    await expectAccessible(tab)
    await other.close()
  })

  it('changes privacy settings and still sees them after a reload', async () => {
    await page.getByRole('link', { name: 'Privacy' }).click()
    await page.waitForURL('**/privacy')
    await expectAccessible()
    await page.getByLabel('Functional').check()
    await page.getByLabel('Everyone').check()
    await page.getByLabel(/Keep my activity log/).fill('400')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText(/^Last saved/).waitFor()
    await page.reload()
    expect(await page.getByLabel('Functional').isChecked()).toBe(true)
    expect(await page.getByLabel('Analytics', { exact: true }).isChecked()).toBe(false)
    expect(await page.getByLabel('Everyone').isChecked()).toBe(true)
    expect(await page.getByLabel(/Keep my activity log/).inputValue()).toBe('400')
  })

  it('records a consent and withdraws it, and the history keeps both', async () => {
    const marketing = page.locator('tbody tr[data-purpose="marketing"]').first()
    await page.getByRole('button', { name: 'Grant Marketing' }).click()
    await page.waitForSelector('tbody tr[data-purpose="marketing"][data-granted="true"]')
    // One truth: the marketing cookie preference follows the consent.
    expect(await page.getByLabel('Marketing', { exact: true }).isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Withdraw Marketing' }).click()
    await page.waitForSelector('tbody tr[data-purpose="marketing"][data-granted="false"]')
    expect(await marketing.getAttribute('data-granted')).toBe('false')
    const history = page.locator('[data-consent-history] tbody tr[data-purpose="marketing"]')
    expect(await history.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-granted')))).toEqual(['false', 'true'])
    await expectAccessible()
  })

  it('downloads the export as JSON and as CSV, holding what the pages recorded', async () => {
    await page.getByRole('link', { name: 'Export' }).click()
    await page.waitForURL('**/export')
    await expectAccessible()

    const json = await download(page, 'Download JSON')
    expect(json.name).toMatch(/^hearth-export-\d{4}-\d{2}-\d{2}\.json$/)
    const exported = JSON.parse(json.text) as { datasets: Record<string, unknown[]> }
    expect(exported.datasets.account).toEqual([expect.objectContaining({ email })])
    expect(JSON.stringify(exported)).toContain('"activityLogDays":400')
    expect(JSON.stringify(exported)).toContain('"purpose":"marketing"')

    const csv = await download(page, 'Download CSV')
    expect(csv.name).toMatch(/\.csv$/)
    expect(csv.text.split(/\r?\n/)[0]).toBe('dataset,recordId,field,value,recordedAt')
    expect(csv.text).toMatch(/^consents,.*,purpose,marketing,/m)
  })

  it('switches to Spanish and stays in Spanish from page to page', async () => {
    await page.getByRole('button', { name: 'Español' }).click()
    await page.waitForSelector('html[lang="es"]')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Exporta tus datos')
    await page.getByRole('link', { name: 'Panel' }).click()
    await page.waitForURL('**/dashboard')
    expect(await page.locator('html').getAttribute('lang')).toBe('es')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Panel')
    await expectAccessible()
    await page.getByRole('button', { name: 'English' }).click()
    await page.waitForSelector('html[lang="en"]')
  })

  it('shows the plan from the dashboard, with no payment button where the hub takes no payments', async () => {
    await page.getByRole('link', { name: 'Your plan and billing' }).click()
    await page.waitForURL('**/billing')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Plan and billing')
    expect(await page.locator('dd[data-plan]').textContent()).toBe('Free')
    expect(await page.locator('[data-action="subscribe"], [data-action="manage-billing"]').count()).toBe(0)
    await expectAccessible()
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await page.waitForURL('**/dashboard')
  })

  it('Open is a plain link to the application, carrying no token', async () => {
    await page.getByRole('link', { name: 'Open Tasks' }).click()
    await page.waitForURL(`${application.url}/**`)
    const target = new URL(page.url())
    expect(target.search + target.hash).toBe('')
    expect(application.requested).toContain('/')
    await page.goBack()
    await page.waitForURL('**/dashboard')
  })

  it('signs another browser out from the dashboard, one session or every other, and that browser is signed out', async () => {
    const signInElsewhere = async () => {
      const away = await newContext()
      const tab = await newPage(away)
      await signInAt(tab, '/login')
      await tab.waitForURL('**/dashboard')
      const listed = await (await away.request.get('/api/account/sessions')).json()
      const current = (listed as { sessions: { id: string; current: boolean }[] }).sessions.find((session) => session.current)
      return { away, tab, handle: current?.id ?? '' }
    }
    const expectSignedOut = async (tab: Page) => {
      await tab.goto('/dashboard')
      await tab.waitForURL('**/login?next=%2Fdashboard')
    }

    const first = await signInElsewhere()
    await page.goto('/dashboard')
    const endFirst = page.locator(`button[data-action="end-session"][data-session-id="${first.handle}"]`)
    expect(await endFirst.getAttribute('data-session-id')).toBe(first.handle)
    expect(await page.locator('tr[data-session="current"] button').count()).toBe(0)
    await expectAccessible()
    await endFirst.click()
    await endFirst.waitFor({ state: 'detached' })
    await expectSignedOut(first.tab)

    const second = await signInElsewhere()
    await page.reload()
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click()
    await page.locator('tr[data-session="other"]').first().waitFor({ state: 'detached' })
    expect(await page.locator('tr[data-session]').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0)
    await expectSignedOut(second.tab)
    await first.away.close()
    await second.away.close()
  })

  it('refreshes the auth cookie every 45 minutes with the CSRF header, and a lost session sends the tab to the login page', async () => {
    const other = await newContext()
    const tab = await newPage(other)
    await signInAt(tab, '/login?next=%2Fprivacy')
    await tab.waitForURL('**/privacy')
    await tab.clock.install()
    await tab.reload()
    const csrfCookie = (await other.cookies()).find((cookie) => cookie.name === 'service-csrf-token')
    const refreshed = tab.waitForResponse((response) => response.url().endsWith('/api/auth/refresh'))
    await tab.clock.fastForward('45:00')
    const response = await refreshed
    expect(response.request().method()).toBe('POST')
    expect(response.request().headers()['x-csrf-token']).toBe(csrfCookie?.value)
    expect(response.status()).toBe(200)

    await other.clearCookies({ name: 'service-auth-token' })
    await tab.getByRole('button', { name: 'Save settings' }).click()
    await tab.waitForURL('**/login?next=%2Fprivacy')
    await other.close()
  })

  it('signing out in one tab signs every other tab out', async () => {
    const second = await newPage(context)
    await second.goto('/privacy')
    expect(second.url()).toMatch(/\/privacy$/)
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForURL('**/login')
    await second.waitForURL('**/login')
    await second.goto('/dashboard')
    await second.waitForURL('**/login?next=%2Fdashboard')
    await second.close()
  })

  it('signing out of a session that already ended elsewhere still signs every other tab out', async () => {
    const other = await newContext()
    const first = await newPage(other)
    await signInAt(first, '/login')
    await first.waitForURL('**/dashboard')
    const second = await newPage(other)
    await second.goto('/privacy')
    // The session ends behind the tabs' backs: the sign-out button then meets a 401.
    expect((await other.request.delete('/api/auth/refresh', { headers: { 'x-csrf-token': await csrfCookieOf(other) } })).status()).toBe(204)
    await first.getByRole('button', { name: 'Sign out', exact: true }).click()
    await first.waitForURL('**/login')
    await second.waitForURL('**/login')
    await other.close()
  })

  it('the hub received no CSP report during the run', () => {
    // Read from the request log, which names every request's path whatever handles the reports.
    expect(hub.output()).toContain('"path":"/dashboard"')
    expect(hub.output()).not.toContain('"path":"/api/csp-report"')
  })
})

async function csrfCookieOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).find((cookie) => cookie.name === 'service-csrf-token')?.value ?? ''
}

async function download(page: Page, buttonName: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: buttonName }).click()])
  const filePath = await file.path()
  return { name: file.suggestedFilename(), text: fs.readFileSync(filePath, 'utf8') }
}

/** Stands in for a registered application: a page on another port that records what it was asked for. */
async function startApplication() {
  const requested: string[] = []
  const server = http.createServer((request, response) => {
    requested.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end('<!doctype html><html lang="en"><title>Tasks</title><h1>Tasks</h1></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requested,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
