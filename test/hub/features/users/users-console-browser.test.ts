import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeAdministrator } from '../../../helpers/administrators.js'
import { chromiumUnderTest, keepScreenshots, recordCspViolations, seriousAccessibilityViolations, visitInEveryLanguageAndWidth } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()

/**
 * The console's Users section in headless Chromium, with long words everywhere (an address of 64
 * characters, a name of 64): on a 360 px phone and a 1280 px desktop, in English and Spanish, no
 * page is wider than the window, axe finds nothing serious and no CSP violation occurs; a change
 * is made by its plain form.
 */
describe.skipIf(!withChromium)('the console’s Users section in a browser', { timeout: 120_000 }, () => {
  const [database] = databasesUnderTest()
  const email = `${'a'.repeat(48)}-${process.pid}@example.com`
  const personEmail = `${'p'.repeat(48)}-${process.pid}@example.com`
  const hub = useHubInBrowser(database!)
  let context: BrowserContext
  let tab: Page
  let personId = ''
  const cspViolations: string[] = []

  beforeAll(async () => {
    for (const address of [email, personEmail]) {
      const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: address, password: GOOD_PASSWORD } })
      expect(signup.statusCode, signup.body).toBe(200)
    }
    const { db } = hub.handle
    const admin = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    await makeAdministrator(db, admin.id)
    personId = (await db.selectFrom('users').select('id').where('email', '=', personEmail).executeTakeFirstOrThrow()).id
    await db.updateTable('users').set({ displayName: 'N'.repeat(64) }).where('id', '=', personId).execute()
    const now = new Date().toISOString()
    const groupId = crypto.randomUUID()
    await db.insertInto('groups').values({ id: groupId, name: 'G'.repeat(64), nameKey: 'g'.repeat(64), description: '', createdAt: now, updatedAt: now }).execute()
    await db.insertInto('groupMembers').values({ groupId, userId: personId, addedAt: now }).execute()

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

  const expectFits = async (width: number) => {
    const { scrollWidth, clientWidth } = await tab.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }))
    expect(scrollWidth, `${tab.url()} at ${width} px`).toBeLessThanOrEqual(clientWidth)
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
  }

  it('signs in, then shows the list and an account on a phone and a desktop, in English and Spanish', async () => {
    await tab.goto('/admin/users')
    await tab.waitForURL('**/login?next=%2Fadmin%2Fusers')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
    await tab.waitForURL('**/admin/users')

    await visitInEveryLanguageAndWidth(tab, ['/admin/users', `/admin/users/${personId}`], async ({ url, width, language }) => {
      if (url === '/admin/users') expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe(language === 'en' ? 'Users' : 'Usuarios')
      await expectFits(width)
    })
    await context.addCookies([{ name: 'lang', value: 'en', url: hub.origin }])
  })

  it('searches, opens an account and disables it with its form', async () => {
    await tab.setViewportSize({ width: 360, height: 800 })
    await tab.goto('/admin/users')
    await tab.getByLabel('Search by address or name').fill('PPPP')
    await tab.getByRole('button', { name: 'Search', exact: true }).click()
    await tab.waitForURL('**/admin/users?query=PPPP')
    await tab.getByRole('link', { name: personEmail }).click()
    await tab.waitForURL(`**/admin/users/${personId}`)
    await tab.getByRole('button', { name: 'Disable account' }).click()
    await tab.waitForURL(`**/admin/users/${personId}?notice=disabled`)
    expect(await tab.getByRole('status').textContent()).toBe('The account was disabled and its sessions ended.')
    expect(await tab.getByRole('button', { name: 'Enable account' }).count()).toBe(1)
    await expectFits(360)
  })
})
