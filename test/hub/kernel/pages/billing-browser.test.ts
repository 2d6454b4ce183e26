import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createPlans } from '../../../../src/hub/features/billing/plans.js'
import { FAMILY_PLAN, PRO_PLAN, UNREACHABLE_STRIPE } from '../../../helpers/billing.js'
import { chromiumUnderTest, keyboardWalk, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, uniqueEmail } from '../../../helpers/hub-app.js'
import { useCheckedTabs, useHubInBrowser } from '../../../helpers/hub-in-browser.js'

const withChromium = chromiumUnderTest()

/**
 * The billing page in headless Chromium against a hub in this process with Stripe configured
 * (its client pointed at a port nothing listens on): reached from the dashboard, scanned by
 * axe-core and walked by keyboard, its buttons' answers followed or shown in the live region.
 * No CSP violation may occur.
 */
describe.skipIf(!withChromium)('the billing page in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const hub = useHubInBrowser(database!, { hub: { config: { billing: { graceDays: 7, stripe: UNREACHABLE_STRIPE } } } })
  const newTab = useCheckedTabs(hub)
  beforeAll(async () => {
    for (const plan of [FAMILY_PLAN, PRO_PLAN]) await createPlans(hub.handle.db).save(plan, new Date())
  })

  const expectAccessible = async (tab: Page) => {
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
    expect(await keyboardWalk(tab), tab.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const signedInOnBilling = async () => {
    const email = uniqueEmail('billing-browser')
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: GOOD_PASSWORD } })
    expect(signup.statusCode, signup.body).toBe(200)
    const tab = await newTab()
    await tab.goto('/login')
    await tab.getByLabel('Email').fill(email)
    await tab.getByLabel('Password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Sign in', exact: true }).click()
    await tab.waitForURL('**/dashboard')
    await tab.getByRole('link', { name: 'Your plan and billing' }).click()
    await tab.waitForURL('**/billing')
    return tab
  }
  const alertText = (tab: Page, section: string) => tab.locator(`section[aria-labelledby="${section}"] [role="alert"]`)

  it('is reached from the dashboard, accessible with its buttons, and shows a refusal in the live region', async () => {
    const tab = await signedInOnBilling()
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Plan and billing')
    await expectAccessible(tab)

    // No Stripe customer yet: the portal's 409, in the page's words.
    await tab.getByRole('button', { name: 'Manage billing' }).click()
    await expect.poll(() => alertText(tab, 'plan-heading').textContent(), { timeout: 5_000 }).toBe('You have not paid through Stripe yet: subscribe to a plan first.')
    // Stripe unreachable: the API's {error}, and the tab stays.
    await tab.getByRole('button', { name: 'Subscribe to Pro' }).click()
    await expect.poll(() => alertText(tab, 'offers-heading').textContent(), { timeout: 20_000 }).toMatch(/^Something went wrong: .+/)
    expect(new URL(tab.url()).pathname).toBe('/billing')
    // With the messages shown; the keyboard walk was done above (it starts from the last focused button, not the top).
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
  })

  it('goes to the page the hub answers, with the CSRF header and the plan, and never to a script URL', async () => {
    const tab = await signedInOnBilling()
    const sent: { csrf: string | undefined; body: unknown }[] = []
    let answer = `${hub.origin}/dashboard?from=checkout`
    // Stands in for the checkout route's answer: what the script does with a {url} is under test here.
    await tab.route('**/api/billing/checkout', async (route) => {
      sent.push({ csrf: route.request().headers()['x-csrf-token'], body: route.request().postDataJSON() })
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ url: answer }) })
    })

    answer = 'javascript:alert(1)'
    await tab.getByRole('button', { name: 'Subscribe to Pro' }).click()
    await expect.poll(() => alertText(tab, 'offers-heading').textContent(), { timeout: 5_000 }).toBe('Something went wrong: javascript:alert(1)')
    expect(new URL(tab.url()).pathname).toBe('/billing')

    answer = `${hub.origin}/dashboard?from=checkout`
    await tab.getByRole('button', { name: 'Subscribe to Pro' }).click()
    await tab.waitForURL('**/dashboard?from=checkout')
    const csrf = (await tab.context().cookies()).find((cookie) => cookie.name === 'service-csrf-token')?.value
    expect(sent).toEqual([
      { csrf, body: { plan: 'pro' } },
      { csrf, body: { plan: 'pro' } }
    ])
  })
})
