import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createMailTokens } from '../../../../src/hub/kernel/mail/mail-tokens.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import type { App } from '../../../../src/shared/http/server.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { remoteHubKeys } from '../../../../src/shared/sso/token-verifier.js'
import { registerTasksClient } from '../../../../src/tasks/web/hub-client-registration.js'
import { PAGE_WIDTHS, chromiumUnderTest, keepScreenshots, launchChromium, recordCspViolations, seriousAccessibilityViolations, visitInEveryLanguageAndWidth } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { RP_CALLBACK, registerClient, useHubOnPort } from '../../../helpers/oidc-relying-party.js'
import { freePort } from '../../../helpers/server-process.js'
import { type CreationOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { TEST_TASKS_CONFIG, buildTestTasksApp } from '../../../helpers/tasks-app.js'

const withChromium = chromiumUnderTest()

const SIGN_OUT = { en: 'Sign out', es: 'Cerrar sesión' } as const

/** Text a person typed, with no space to break at: the longest each field takes. */
const LONG_TITLE = 'T'.repeat(500)
const LONG_DESCRIPTION = 'D'.repeat(2000)
const LONG_NAME = 'N'.repeat(64)
const LONG_PASSKEY_NAME = 'P'.repeat(64)
const LONG_USER_AGENT = 'Device'.repeat(40)
const LONG_CLIENT_NAME = 'C'.repeat(64)
const NO_SUCH_TASK = '00000000-0000-4000-8000-000000000000'

/**
 * Every page of the hub and of the task manager, as a person with long words everywhere sees
 * them, on a 360 px phone and a 1280 px desktop, in English and Spanish: no page is wider than
 * the window, "Sign out" is on screen, axe finds nothing serious, no CSP violation. Both services
 * in this process, the task manager signed in through the hub as in production.
 */
describe.skipIf(!withChromium)('every page of both services on a phone and a desktop', { timeout: 240_000 }, () => {
  const [database] = databasesUnderTest()
  let tasksPort = 0
  let tasksOrigin = ''
  beforeAll(async () => {
    tasksPort = await freePort()
    tasksOrigin = `http://127.0.0.1:${tasksPort}`
  })
  const hub = useHubOnPort(database!, () => ({ config: { apps: { tasks: tasksOrigin } } }))
  let tasks: App
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let taskId = ''
  const cspViolations: string[] = []
  const email = `${'e'.repeat(48)}-${process.pid}@example.com`

  beforeAll(async () => {
    const config = { ...TEST_TASKS_CONFIG, publicUrl: tasksOrigin, hubIssuer: hub.issuer, allowedHosts: [`127.0.0.1:${tasksPort}`] }
    await registerTasksClient(hub.handle.db, config, createLogger('silent'))
    tasks = await buildTestTasksApp(hub.handle.db, { config, hubKeys: remoteHubKeys(new URL(`${hub.issuer}/.well-known/jwks.json`)) })
    await tasks.listen({ port: tasksPort, host: '127.0.0.1' })
    // An application from outside the family, so that its consent page shows.
    await registerClient(hub.handle, { id: 'outside-app', name: LONG_CLIENT_NAME })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: hub.issuer, locale: 'en-US' })
    page = await context.newPage()
    await recordCspViolations(page, cspViolations)
    await seedAccount()
  })
  afterAll(async () => {
    await browser?.close()
    await tasks?.close()
  })
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots(browser.contexts().flatMap((open) => open.pages()), task.name))
  })
  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  /** A call to the hub's API from the page, as its script makes it: the page's origin and the CSRF header. */
  const api = (on: Page, method: string, url: string, body?: unknown) =>
    on.evaluate(
      async ({ method, url, body }) => {
        const csrf = document.cookie.split('; ').find((cookie) => cookie.startsWith('service-csrf-token='))?.slice('service-csrf-token='.length) ?? ''
        const response = await fetch(url, {
          method,
          headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: response.status, body: (await response.text()) || 'null' }
      },
      { method, url, body }
    )
  const expectOk = async (call: ReturnType<typeof api>) => {
    const { status, body } = await call
    expect(status, body).toBeLessThan(300)
    return JSON.parse(body) as unknown
  }
  /** Passkeys and two-step sign-in need a confirmed address: the mailed link's token, sent as its page sends it. */
  const confirmAddress = async (on: Page) => {
    const { userId } = (await expectOk(api(on, 'GET', '/api/account'))) as { userId: string }
    const token = await createMailTokens(hub.handle.db).issue(userId, 'email-verification', new Date())
    await expectOk(api(on, 'POST', '/api/account/email/verify', { token }))
  }

  /** A long display name, a passkey and another session with long names, a consent, and a task with a 500-character title. */
  async function seedAccount() {
    await page.goto('/login')
    await expectOk(api(page, 'POST', '/api/auth/signup', { email, password: GOOD_PASSWORD }))
    await expectOk(api(page, 'POST', '/api/auth/login', { email, password: GOOD_PASSWORD }))
    await confirmAddress(page)
    await expectOk(api(page, 'PATCH', '/api/account', { displayName: LONG_NAME }))
    const options = (await expectOk(api(page, 'POST', '/api/account/passkeys/options'))) as CreationOptionsJson
    const response = softwareAuthenticator(hub.issuer).create(options)
    await expectOk(api(page, 'POST', '/api/account/passkeys', { response, name: LONG_PASSKEY_NAME }))
    await expectOk(api(page, 'POST', '/api/privacy/consent', { purpose: 'marketing', granted: true, version: '2026-01' }))
    // Another session, from a device whose user agent no parser knows: its name is the raw agent.
    const elsewhere = await fetch(`${hub.issuer}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: hub.issuer, 'user-agent': LONG_USER_AGENT },
      body: JSON.stringify({ email, password: GOOD_PASSWORD })
    })
    expect(elsewhere.status).toBe(200)

    await page.goto(`${tasksOrigin}/`)
    await page.waitForURL(`${tasksOrigin}/`)
    await page.locator('#task-title').fill(LONG_TITLE)
    await page.locator('#task-description').fill(LONG_DESCRIPTION)
    await page.locator('form.stacked-form button[type="submit"]').click()
    await page.waitForURL('**/?notice=created')
    taskId = (await page.locator('.task-list article').first().getAttribute('aria-labelledby'))?.replace('task-', '') ?? ''
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/)
  }

  /** The pages, each with whether it shows the signed-in navigation. */
  const signedInPages = () => [
    ...['/dashboard', '/account/security', '/privacy', '/activity', '/export', '/billing', '/account'].map((url) => ({ url: hub.issuer + url, nav: true })),
    ...['/forgot-password', '/reset-password', '/verify-email', '/confirm-email'].map((url) => ({ url: hub.issuer + url, nav: true })),
    { url: `${hub.issuer}/oidc/session/end`, nav: true },
    { url: `${hub.issuer}/oidc/auth?client_id=${'x'.repeat(200)}&response_type=code&scope=openid`, nav: true },
    { url: consentRequest(), nav: true },
    // The list, a task's edit and delete pages, and the message page of a task that is not there.
    ...['/', `/pages/tasks/${taskId}/edit`, `/pages/tasks/${taskId}/delete`, `/pages/tasks/${NO_SUCH_TASK}/edit`].map((url) => ({ url: tasksOrigin + url, nav: true }))
  ]
  const signedOutPages = () => [
    ...['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email', '/confirm-email'].map((url) => ({ url: hub.issuer + url, nav: false })),
    { url: `${tasksOrigin}/auth/signed-out`, nav: false }
  ]
  const consentRequest = () => {
    const verifier = randomBytes(32).toString('base64url')
    const query = new URLSearchParams({
      client_id: 'outside-app',
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: RP_CALLBACK,
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256'
    })
    return `${hub.issuer}/oidc/auth?${query}`
  }

  /** What the page measures of itself: its width against the window's, and where "Sign out" sits. */
  const measure = (on: Page, signOut: string) =>
    on.evaluate((signOutText) => {
      const button = Array.from(document.querySelectorAll('nav button')).find((candidate) => candidate.textContent?.trim() === signOutText)
      const box = button?.getBoundingClientRect()
      return {
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
        signOut: box ? { left: box.left, right: box.right, top: box.top, visible: box.width > 0 && box.height > 0 } : null
      }
    }, signOut)

  async function visitEvery(on: Page, pages: { url: string; nav: boolean }[], shots: Record<string, string> = {}) {
    const problems: string[] = []
    const withNavigation = new Set(pages.filter(({ nav }) => nav).map(({ url }) => url))
    await visitInEveryLanguageAndWidth(
      on,
      pages.map(({ url }) => url),
      async ({ url, width, language }) => {
        const where = `${new URL(on.url()).pathname} at ${width} px in ${language}`
        expect(await on.locator('html').getAttribute('lang'), where).toBe(language)
        const measured = await measure(on, SIGN_OUT[language])
        if (measured.scrollWidth > measured.innerWidth) problems.push(`${where}: ${measured.scrollWidth} px wide`)
        if (withNavigation.has(url)) {
          const box = measured.signOut
          if (!box || !box.visible || box.left < 0 || box.right > measured.innerWidth) problems.push(`${where}: "${SIGN_OUT[language]}" off screen ${JSON.stringify(box)}`)
        }
        const violations = await seriousAccessibilityViolations(on)
        if (violations.length > 0) problems.push(`${where}: ${JSON.stringify(violations)}`)
        const shot = shots[new URL(url).pathname]
        if (shot && width === 360 && language === 'en') await screenshot(on, shot)
      }
    )
    expect(problems).toEqual([])
  }

  it('signed in: every page fits 360 px and 1280 px in both languages, "Sign out" on screen, with long names everywhere', async () => {
    await visitEvery(page, signedInPages(), { '/dashboard': 'dashboard-360', '/account/security': 'security-360', '/': 'tasks-360' })
    // A task of ordinary length too, to see its status and buttons at a glance.
    await page.context().addCookies([{ name: 'lang', value: 'en', domain: '127.0.0.1', path: '/' }])
    await page.setViewportSize({ width: 360, height: 800 })
    await page.goto(`${tasksOrigin}/`)
    await page.locator('#task-title').fill('Water the plants')
    await page.locator('form.stacked-form button[type="submit"]').click()
    await page.waitForURL('**/?notice=created')
    await screenshot(page, 'tasks-short-360', false)
  })

  it('signed out: the sign-in pages fit too', async () => {
    const away = await browser.newContext({ baseURL: hub.issuer, locale: 'en-US' })
    const tab = await away.newPage()
    await recordCspViolations(tab, cspViolations)
    await visitEvery(tab, signedOutPages())
    await away.close()
  })

  it('the sign-in page’s second step keeps its links inside the form, at both widths', async () => {
    const away = await browser.newContext({ baseURL: hub.issuer, locale: 'en-US' })
    const tab = await away.newPage()
    await recordCspViolations(tab, cspViolations)
    const twoStepEmail = `two-step-${process.pid}@example.com`
    await tab.goto('/login')
    await expectOk(api(tab, 'POST', '/api/auth/signup', { email: twoStepEmail, password: GOOD_PASSWORD }))
    await expectOk(api(tab, 'POST', '/api/auth/login', { email: twoStepEmail, password: GOOD_PASSWORD }))
    await confirmAddress(tab)
    const { secret } = (await expectOk(api(tab, 'POST', '/api/account/totp'))) as { secret: string }
    await expectOk(api(tab, 'POST', '/api/account/totp/confirm', { code: totpCode(secret, new Date()) }))
    await away.clearCookies()
    await away.addCookies([{ name: 'lang', value: 'en', domain: '127.0.0.1', path: '/' }])

    for (const width of PAGE_WIDTHS) {
      await tab.setViewportSize({ width, height: 800 })
      await tab.goto('/login')
      await tab.locator('#email').fill(twoStepEmail)
      await tab.locator('#password').fill(GOOD_PASSWORD)
      await tab.locator('form[data-form="login"] button[type="submit"]').click()
      for (const step of ['code', 'recovery-code']) {
        const form = tab.locator('form[data-form="second-factor"]')
        await form.locator(step === 'code' ? 'input[name="code"]' : 'input[name="recoveryCode"]').waitFor()
        const switchButton = form.locator('[data-action="second-step-switch"]')
        const [outer, inner, submit] = [await form.boundingBox(), await switchButton.boundingBox(), await form.locator('button[type="submit"]').boundingBox()]
        if (!outer || !inner || !submit) throw new Error(`the ${step} step is not shown`)
        // Within the form, and starting at its edge like the field and the submit button, not centred across it.
        expect({ step, width, inside: inner.x >= outer.x && inner.x + inner.width <= outer.x + outer.width + 0.5, alignedLeft: Math.abs(inner.x - submit.x) < 1 }).toEqual({
          step,
          width,
          inside: true,
          alignedLeft: true
        })
        expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
        expect(await seriousAccessibilityViolations(tab), `${step} at ${width}`).toEqual([])
        if (width === 360 && step === 'code') await screenshot(tab, 'second-step-360')
        await switchButton.click()
      }
    }
    await away.close()
  })
})

/** Kept under test-results/layout/ to be looked at: how the pages look on a phone. */
async function screenshot(page: Page, name: string, fullPage = true) {
  const dir = path.resolve('test-results', 'layout')
  fs.mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage })
}
