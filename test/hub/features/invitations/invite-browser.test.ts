import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { chromiumUnderTest, keyboardWalk, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, logIn } from '../../../helpers/hub-app.js'
import { useCheckedTabs, useHubInBrowser } from '../../../helpers/hub-in-browser.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { createAccounts } from '../../../../src/hub/kernel/accounts/accounts.js'
import { createUsersRepository } from '../../../../src/hub/kernel/accounts/repository.js'

const withChromium = chromiumUnderTest()

/**
 * An invitation as its person meets it, in headless Chromium with HUB_SIGNUP=invite: the link of the
 * mail a real SMTP server received opens `/invite`, which makes the account and signs in; the link
 * works once. The administrator's console pages are scanned by axe at phone and desktop widths.
 */
describe.skipIf(!withChromium)('an invitation in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const smtp = useSmtpServer()
  const hub = useHubInBrowser(database!, { hub: () => ({ config: { signup: 'invite', smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }) })
  const newTab = useCheckedTabs(hub)
  const expectAccessible = async (tab: Page) => {
    expect(await seriousAccessibilityViolations(tab), tab.url()).toEqual([])
    expect(await keyboardWalk(tab), tab.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }
  const administrator = async (email: string) => {
    const { userId } = await createAccounts(createUsersRepository(hub.handle.db)).create({ email, password: GOOD_PASSWORD }, new Date())
    await hub.handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute()
    return logIn(hub.app, email)
  }

  it('makes the invited account from the mailed link, signs it in, and refuses the link a second time', async () => {
    const admin = await administrator(`inviter-${process.pid}@example.com`)
    const group = await hub.app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name: 'Family' } })
    const email = `invited-${process.pid}@example.com`
    const sent = await hub.app.inject({ method: 'POST', url: '/api/admin/invitations', headers: admin.headers, payload: { email, groups: ['family'], language: 'en' } })
    expect(sent.statusCode, sent.body).toBe(201)
    const [mail] = await mailsTo(smtp.server, email)
    const link = /(http\S+\/invite#token=\S+)/.exec(mail?.text ?? '')?.[1] ?? ''
    expect(link.startsWith(`${hub.origin}/invite#token=`)).toBe(true)

    const tab = await newTab()
    await tab.goto(link)
    // The token and the address leave the address bar at once; the address is shown, not editable.
    await tab.waitForURL((url) => url.pathname === '/invite' && url.hash === '')
    const address = tab.getByLabel('Your email')
    expect(await address.inputValue()).toBe(email)
    expect(await address.getAttribute('readonly')).not.toBeNull()
    await expectAccessible(tab)
    await tab.getByLabel('Your password').fill(GOOD_PASSWORD)
    await tab.getByRole('button', { name: 'Make my account' }).click()
    await tab.waitForURL('**/dashboard')
    const account = await hub.handle.db.selectFrom('users').select(['id', 'emailVerified']).where('email', '=', email).executeTakeFirstOrThrow()
    expect(account.emailVerified).toBe(1)
    const members = await hub.app.inject({ method: 'GET', url: `/api/admin/groups/${group.json<{ id: string }>().id}`, headers: admin.headers })
    expect(members.json<{ accounts: { userId: string }[] }>().accounts.map((one) => one.userId)).toEqual([account.id])

    const again = await newTab()
    await again.goto(link)
    await again.getByLabel('Your password').fill('another long passphrase')
    await again.getByRole('button', { name: 'Make my account' }).click()
    await again.getByText('This invitation cannot be used: it was already used, withdrawn or has expired. Ask the person who runs this hub for a new one.').waitFor()
  })

  it('says the link is needed when /invite is opened without one', async () => {
    const tab = await newTab()
    await tab.goto('/invite')
    await tab.getByText('This page needs the link from your invitation mail. Open that link again.').waitFor()
  })

  it.each([
    [360, 'es'],
    [1280, 'en']
  ])('shows the console pages accessible and without horizontal scroll at %i px (%s)', async (width, lang) => {
    const email = `console-${width}-${process.pid}@example.com`
    const admin = await administrator(email)
    const group = (await hub.app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name: `Kids ${width}`, description: 'A description long enough to wrap on a phone screen' } })).json<{ id: string }>()
    await hub.app.inject({ method: 'PUT', url: `/api/admin/groups/${group.id}/members/${admin.userId}`, headers: admin.headers })
    await hub.app.inject({ method: 'POST', url: '/api/admin/invitations', headers: admin.headers, payload: { email: `pending-${width}-${process.pid}@example.com`, groups: [`kids ${width}`] } })
    const tab = await newTab()
    await tab.setViewportSize({ width, height: 800 })
    await tab.context().addCookies([{ name: 'lang', value: lang, url: hub.origin }])
    await tab.goto('/login')
    await tab.locator('input[name=email]').fill(email)
    await tab.locator('input[name=password]').fill(GOOD_PASSWORD)
    await tab.locator('form[data-form=login] button[type=submit]').click()
    await tab.waitForURL('**/dashboard')
    for (const path of ['/admin/invitations', '/admin/groups', `/admin/groups/${group.id}`]) {
      await tab.goto(path)
      expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true)
      await expectAccessible(tab)
    }
  })
})
