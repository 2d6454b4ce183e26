import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumUnderTest, recordCspViolations, seriousAccessibilityViolations, visitInEveryLanguageAndWidth } from '../../../helpers/browser.js'
import { makeAdministrator } from '../../../helpers/administrators.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD } from '../../../helpers/hub-app.js'
import { useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()
const LONG_NAME = 'N'.repeat(64)
const LONG_URI = `https://photos.example/${'a-rather-long-path-segment-without-breaks'.repeat(5)}/callback`

/**
 * The Applications section as an administrator uses it (its forms are plain HTML, which the page's
 * script leaves alone; test/hub/features/oidc/applications-console.test.ts posts them as a browser
 * without script does), on a 360 px phone and a 1280 px desktop, in English and Spanish: no page wider than the window,
 * axe finds nothing serious, no CSP violation.
 */
describe.skipIf(!withChromium)('the console’s Applications section in Chromium', { timeout: 120_000 }, () => {
  const [database] = databasesUnderTest()
  const suite = useHubInBrowser(database!)

  /** A tab signed in as a new administrator (signed in through the API, then the session's cookies handed to it). */
  const administratorTab = async (): Promise<{ tab: Page; violations: string[] }> => {
    const email = `admin-${process.pid}-${Date.now()}@example.com`
    const body = JSON.stringify({ email, password: GOOD_PASSWORD })
    const headers = { 'content-type': 'application/json', origin: suite.origin }
    expect((await fetch(`${suite.origin}/api/auth/signup`, { method: 'POST', headers, body })).status).toBe(200)
    const login = await fetch(`${suite.origin}/api/auth/login`, { method: 'POST', headers, body })
    await makeAdministrator(suite.handle.db, ((await login.json()) as { userId: string }).userId)
    const context = await suite.browser.newContext({ baseURL: suite.origin, locale: 'en-US', })
    const cookies = login.headers.getSetCookie().map((line) => {
      const [pair = ''] = line.split(';')
      const separator = pair.indexOf('=')
      return { name: pair.slice(0, separator), value: pair.slice(separator + 1), url: suite.origin }
    })
    await context.addCookies(cookies)
    const tab = await context.newPage()
    const violations: string[] = []
    await recordCspViolations(tab, violations)
    return { tab, violations }
  }

  const problemsOf = async (tab: Page, where: string): Promise<string[]> => {
    const problems: string[] = []
    const { scrollWidth, innerWidth } = await tab.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
    if (scrollWidth > innerWidth) problems.push(`${where}: ${scrollWidth} px wide`)
    const serious = await seriousAccessibilityViolations(tab)
    if (serious.length > 0) problems.push(`${where}: ${JSON.stringify(serious)}`)
    return problems
  }

  it('adds, shows the secret once, edits, replaces the secret and removes, every page fitting a phone in both languages', async () => {
    const { tab, violations } = await administratorTab()
    const problems: string[] = []
    await tab.setViewportSize({ width: 360, height: 800 })

    await tab.goto('/admin/applications')
    await tab.locator('#application-name').fill(LONG_NAME)
    await tab.locator('#application-client-id').fill('photo-album')
    await tab.locator('#application-redirect-uris').fill(`${LONG_URI}\nhttps://photos.example/cb`)
    await tab.locator('form.stacked-form button[type="submit"]').click()
    await tab.waitForLoadState()
    const secret = (await tab.locator('[data-client-secret]').textContent()) ?? ''
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(new URL(tab.url()).pathname).toBe('/admin/applications')
    expect(tab.url()).not.toContain(secret)
    problems.push(...(await problemsOf(tab, 'the new secret')))
    // Back and forth: the secret is not shown again.
    await tab.goto('/admin/applications')
    expect(await tab.content()).not.toContain(secret)

    const pages = ['/admin/applications', '/admin/applications/photo-album', '/admin/applications/photo-album/remove']
    await visitInEveryLanguageAndWidth(tab, pages, async ({ url, width, language }) => {
      expect(await tab.locator('html').getAttribute('lang')).toBe(language)
      problems.push(...(await problemsOf(tab, `${url} at ${width} px in ${language}`)))
    })
    await tab.context().addCookies([{ name: 'lang', value: 'en', url: suite.origin }])
    await tab.setViewportSize({ width: 360, height: 800 })

    await tab.goto('/admin/applications/photo-album')
    await tab.locator('#application-redirect-uris').fill('https://photos.example/new-callback')
    await tab.getByRole('button', { name: 'Save changes' }).click()
    await tab.waitForURL('**/admin/applications/photo-album?notice=changed')
    expect(await tab.locator('.notice').textContent()).toBe('The changes were saved.')
    expect(await tab.locator('#application-redirect-uris').inputValue()).toBe('https://photos.example/new-callback')

    await tab.getByRole('button', { name: 'Replace the secret' }).click()
    await tab.waitForLoadState()
    const replaced = (await tab.locator('[data-client-secret]').textContent()) ?? ''
    expect(replaced).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(replaced).not.toBe(secret)
    problems.push(...(await problemsOf(tab, 'the replaced secret')))

    await tab.goto('/admin/applications/photo-album')
    await tab.getByRole('link', { name: 'Remove this application…' }).click()
    await tab.getByRole('button', { name: 'Remove the application' }).click()
    await tab.waitForURL('**/admin/applications?notice=removed')
    expect(await tab.locator('.notice').textContent()).toBe('The application was removed, with its grants and tokens.')
    expect(await tab.content()).toContain('No application is registered yet.')

    expect(problems).toEqual([])
    expect(violations).toEqual([])
    await tab.context().close()
  })
})
