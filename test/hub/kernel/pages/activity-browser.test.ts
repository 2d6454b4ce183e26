import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { chromiumUnderTest, keepScreenshots, keyboardWalk, recordCspViolations, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()

/**
 * The activity page in headless Chromium against a hub listening on loopback: reached from the
 * dashboard after signing in, paged by its links. Each page is scanned by axe-core and walked by
 * keyboard, and no CSP violation may occur.
 */
describe.skipIf(!withChromium)('the activity page in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const email = `activity-browser-${process.pid}@example.com`
  const hub = useHubInBrowser(database!)
  let context: BrowserContext
  let tab: Page
  const cspViolations: string[] = []

  /** One tab for the whole suite: the later tests go on in the session the first one signs in. */
  beforeAll(async () => {
    context = await hub.browser.newContext({ baseURL: hub.origin, locale: 'en-US' })
    tab = await context.newPage()
    await recordCspViolations(tab, cspViolations)
  })

  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots(context.pages(), task.name))
  })

  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  const expectAccessible = async () => {
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
    expect(await keyboardWalk(tab), tab.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const sentences = () => tab.locator('table.activity-list tbody tr td:first-child').allTextContents()

  it('opening /activity signed out asks to sign in, then shows the sign-in that just happened', async () => {
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    expect(signup.statusCode, signup.body).toBe(200)
    await tab.goto('/activity')
    await tab.waitForURL('**/login?next=%2Factivity')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
    await tab.waitForURL('**/activity')
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Your account activity')
    const [newest, ...older] = await sentences()
    // Headless Chromium on Linux, named from its own user agent.
    expect(newest).toMatch(/^Signed in from \w*Chrome\w* on Linux$/)
    expect(older.at(-1)).toBe('Created your account')
    await expectAccessible()
  })

  it('is reached from the dashboard, and pages back and forth by its links', async () => {
    const user = await hub.handle.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    const trail = createAuditTrail(hub.handle.db)
    for (let index = 0; index < 25; index += 1) await trail.record({ userId: user.id, type: 'sso-token.issued', detail: { audience: `app${String(index)}` } })

    await tab.goto('/dashboard')
    await expectAccessible()
    await tab.getByRole('link', { name: 'See your account activity' }).click()
    await tab.waitForURL('**/activity')
    expect(await sentences()).toHaveLength(20)
    expect((await sentences())[0]).toBe('Opened app24')

    await tab.getByRole('link', { name: 'Older activity' }).click()
    await tab.waitForURL('**/activity?cursor=*')
    expect((await sentences()).at(-1)).toBe('Created your account')
    expect(await tab.getByRole('link', { name: 'Older activity' }).count()).toBe(0)
    await expectAccessible()

    await tab.getByRole('link', { name: 'Newest activity' }).click()
    await tab.waitForURL('**/activity')
    expect((await sentences())[0]).toBe('Opened app24')
  })
})
