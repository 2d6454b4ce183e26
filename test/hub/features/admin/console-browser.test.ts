import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { issueSetupToken } from '../../../../src/hub/features/admin/setup.js'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { createMailQueue } from '../../../../src/hub/kernel/mail/queue.js'
import { chromiumUnderTest, seriousAccessibilityViolations, visitInEveryLanguageAndWidth } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { forgetRecentSignIns } from '../../../helpers/administrators.js'
import { GOOD_PASSWORD, signUpAndLogIn } from '../../../helpers/hub-app.js'
import { useCheckedTabs, useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()

/** Text people typed, with no space to break at. */
const LONG_LOCAL_PART = 'l'.repeat(60)
const LONG_ERROR = `SMTP said: ${'E'.repeat(400)}`

/**
 * The administrator's console in Chromium, as whoever installs the hub meets it: the set-up link
 * creates the first administrator, who then opens every section the console's navigation lists
 * (read from the page, so a section another feature adds is covered too), at phone and desktop
 * width, in English and Spanish, with long addresses in the lists: no page wider than the window,
 * nothing serious for axe, no CSP violation. The confirm step works with script off.
 */
describe.skipIf(!withChromium)('the administrator’s console in a browser', { timeout: 240_000 }, () => {
  const [database] = databasesUnderTest()
  // The sender stays idle, so the queued mail is there to list.
  const hub = useHubInBrowser(database!, { hub: { mailSenderIntervalMs: 3_600_000 } })
  const newTab = useCheckedTabs(hub)
  const adminEmail = `admin-${LONG_LOCAL_PART}-${process.pid}@example.com`

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
        return { status: response.status, body: await response.text() }
      },
      { method, url, body }
    )

  const signIn = async (tab: Page, email: string) => {
    await tab.goto('/login')
    const login = await api(tab, 'POST', '/api/auth/login', { email, password: GOOD_PASSWORD })
    expect(login.status, login.body).toBe(200)
  }

  beforeAll(async () => {
    // A few people with long addresses and names, their activity, queued mail and an undelivered event.
    const trail = createAuditTrail(hub.handle.db)
    for (let person = 0; person < 4; person += 1) {
      const member = await signUpAndLogIn(hub.app, `member-${String(person)}-${LONG_LOCAL_PART}-${process.pid}@example.com`, `10.7.0.${String(person + 1)}`)
      await hub.handle.db.updateTable('users').set({ displayName: 'N'.repeat(64) }).where('id', '=', member.userId).execute()
      await trail.record({ userId: member.userId, type: 'password.changed', ip: '10.7.0.9', userAgent: 'Device'.repeat(40) }, new Date())
    }
    const mail = createMailQueue(hub.handle.db)
    const id = await mail.enqueue({ to: `queued-${LONG_LOCAL_PART}@example.com`, subject: 'S'.repeat(200), text: 'x', html: 'x', userId: null }, new Date())
    await mail.retryLater(id, new Date(Date.now() + 3_600_000), LONG_ERROR)
    const someone = await hub.handle.db.selectFrom('users').select('id').executeTakeFirstOrThrow()
    await hub.handle.db
      .insertInto('securityEventOutbox')
      .values({
        id: crypto.randomUUID(),
        applicationId: 'tasks',
        eventType: 'https://schemas.openid.net/secevent/risc/event-type/sessions-revoked',
        userId: someone.id,
        createdAt: new Date().toISOString(),
        attempts: 3,
        nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString(),
        lastError: LONG_ERROR
      })
      .execute()
  })

  it('the set-up link creates the first administrator; the console’s every section fits both widths in both languages, axe- and CSP-clean', async () => {
    const tab = await newTab()
    const token = await issueSetupToken(hub.handle.db, new Date())
    await tab.goto(`/setup#token=${token ?? ''}`)
    // The script moves the token out of the address bar at once.
    await expect.poll(() => new URL(tab.url()).hash).toBe('')
    expect(await seriousAccessibilityViolations(tab)).toEqual([])
    await tab.locator('#setup-email').fill(adminEmail)
    await tab.locator('#setup-password').fill(GOOD_PASSWORD)
    await tab.locator('form[data-form="setup"] button[type="submit"]').click()
    await expect.poll(() => tab.locator('[data-form-message]').textContent()).toContain('The administrator was created')
    await tab.waitForURL('**/login?next=%2Fadmin')

    await tab.locator('#email').fill(adminEmail)
    await tab.locator('#password').fill(GOOD_PASSWORD)
    await tab.locator('form[data-form="login"] button[type="submit"]').click()
    await tab.waitForURL('**/admin')

    // The site's navigation leads an administrator to the console.
    expect(await tab.locator('header nav a[href="/admin"]').count()).toBe(1)

    const sections = await tab.locator('nav.console-navigation a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    expect(sections[0]).toBe('/admin')
    expect(sections).toEqual(expect.arrayContaining(['/admin/activity', '/admin/queues']))
    const pages = [...sections, '/admin/activity?type=password.changed', `/admin/activity?account=${encodeURIComponent(`member-0-${LONG_LOCAL_PART}-${process.pid}@example.com`)}`, '/admin/confirm?next=%2Fadmin%2Fqueues']

    const problems: string[] = []
    await visitInEveryLanguageAndWidth(tab, pages, async ({ url, width, language, response }) => {
      const where = `${url} at ${String(width)} px in ${language}`
      if (response?.status() !== 200) problems.push(`${where}: ${String(response?.status())}`)
      expect(await tab.locator('html').getAttribute('lang'), where).toBe(language)
      const { scrollWidth, innerWidth } = await tab.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
      if (scrollWidth > innerWidth) problems.push(`${where}: ${String(scrollWidth)} px wide`)
      const violations = await seriousAccessibilityViolations(tab)
      if (violations.length > 0) problems.push(`${where}: ${JSON.stringify(violations)}`)
      if ((await tab.locator('nav.console-navigation').count()) === 0) problems.push(`${where}: no console navigation`)
    })
    expect(problems).toEqual([])

    // The lists show what was seeded.
    await tab.context().addCookies([{ name: 'lang', value: 'en', domain: '127.0.0.1', path: '/' }])
    await tab.goto('/admin/queues')
    expect(await tab.locator('table').first().textContent()).toContain(`queued-${LONG_LOCAL_PART}@example.com`)
    await tab.goto('/admin/activity?type=password.changed')
    expect(await tab.locator('tr[data-type="password.changed"]').count()).toBe(4)
  })

  it('confirms it is you through the plain form with script disabled, and goes back to the console page', async () => {
    const scripted = await newTab()
    await signIn(scripted, adminEmail)
    const cookies = await scripted.context().cookies()
    await forgetRecentSignIns(hub.handle.db)

    const noScript = await hub.browser.newContext({ baseURL: hub.origin, locale: 'en-US', javaScriptEnabled: false })
    try {
      await noScript.addCookies(cookies)
      const tab = await noScript.newPage()
      await tab.goto('/admin/confirm?next=%2Fadmin%2Fqueues')
      await tab.locator('#confirm-password').fill('not the password')
      await tab.locator('main form button[type="submit"]').click()
      await tab.waitForURL('**/admin/confirm?next=%2Fadmin%2Fqueues&refused=wrong-password')
      expect(await tab.locator('#confirm-refused').textContent()).toBe('That password is not right. Try again.')
      await tab.locator('#confirm-password').fill(GOOD_PASSWORD)
      await tab.locator('main form button[type="submit"]').click()
      await tab.waitForURL('**/admin/queues')
      expect(await tab.locator('h1').textContent()).toBe('Queues')
    } finally {
      await noScript.close()
    }
    const proofs = await hub.handle.db.selectFrom('auditEvents').select('detail').where('type', '=', 'session.reauthenticated').execute()
    expect(proofs.map(({ detail }) => JSON.parse(detail) as { method: string })).toEqual([expect.objectContaining({ method: 'password' })])
  })

  it('a member finds no console: no Administration link, and /admin answers 404', async () => {
    const tab = await newTab()
    const member = `member-0-${LONG_LOCAL_PART}-${process.pid}@example.com`
    await signIn(tab, member)
    await tab.goto('/dashboard')
    expect(await tab.locator('header nav a[href="/admin"]').count()).toBe(0)
    const response = await tab.goto('/admin')
    expect(response?.status()).toBe(404)
  })
})
