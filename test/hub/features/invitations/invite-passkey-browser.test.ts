import type { CDPSession, Page } from 'playwright-core'
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

const WORDS = {
  en: { button: 'Use a passkey instead', cancelled: 'No passkey was made (the prompt was closed or timed out); your account was not made. Try again, or choose a password.' },
  es: {
    button: 'Usar una llave de acceso',
    cancelled: 'No se creó ninguna llave de acceso (se cerró el aviso o se agotó el tiempo); tu cuenta no se ha creado. Inténtalo de nuevo o elige una contraseña.'
  }
} as const

/**
 * An invited person who chooses a passkey over a password, in headless Chromium with a virtual
 * platform authenticator (CTAP2, internal, resident keys, user verification): the mailed link opens
 * `/invite` at http://localhost (a passkey's RP id needs a host name), the button runs the real
 * WebAuthn ceremony, and the account is made and signed in. At phone and desktop widths, in
 * Spanish and English, scanned by axe and walked by keyboard.
 */
describe.skipIf(!withChromium)('an invitation taken with a passkey in a browser', { timeout: 60_000 }, () => {
  const [database] = databasesUnderTest()
  const smtp = useSmtpServer()
  const hub = useHubInBrowser(database!, { host: 'localhost', hub: () => ({ config: { signup: 'invite', smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }) })
  const newTab = useCheckedTabs(hub)

  const administrator = async (email: string) => {
    const { userId } = await createAccounts(createUsersRepository(hub.handle.db)).create({ email, password: GOOD_PASSWORD }, new Date())
    await hub.handle.db.updateTable('users').set({ role: 'admin' }).where('id', '=', userId).execute()
    return logIn(hub.app, email)
  }
  /** Chromium's virtual authenticator on the tab, answering its navigator.credentials calls. */
  const virtualAuthenticator = async (tab: Page): Promise<{ devtools: CDPSession; authenticatorId: string }> => {
    const devtools = await tab.context().newCDPSession(tab)
    await devtools.send('WebAuthn.enable')
    const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true }
    })
    return { devtools, authenticatorId }
  }

  it.each([
    [360, 'es'],
    [1280, 'en']
  ] as const)('makes the invited account with a passkey at %i px (%s), after a refused prompt changed nothing', async (width, lang) => {
    const admin = await administrator(`passkey-inviter-${width}-${process.pid}@example.com`)
    const group = await hub.app.inject({ method: 'POST', url: '/api/admin/groups', headers: admin.headers, payload: { name: `Household ${width}` } })
    const email = `passkey-invited-${width}-${process.pid}@example.com`
    const sent = await hub.app.inject({ method: 'POST', url: '/api/admin/invitations', headers: admin.headers, payload: { email, groups: [`household ${width}`], language: lang } })
    expect(sent.statusCode, sent.body).toBe(201)
    const [mail] = await mailsTo(smtp.server, email)
    const link = /(http\S+\/invite#token=\S+)/.exec(mail?.text ?? '')?.[1] ?? ''
    expect(link.startsWith(`${hub.origin}/invite#token=`)).toBe(true)

    const tab = await newTab()
    await tab.setViewportSize({ width, height: 800 })
    await tab.context().addCookies([{ name: 'lang', value: lang, url: hub.origin }])
    const { devtools, authenticatorId } = await virtualAuthenticator(tab)
    await tab.goto(link)
    await tab.waitForURL((url) => url.pathname === '/invite' && url.hash === '')
    expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousAccessibilityViolations(tab)).toEqual([])
    expect(await keyboardWalk(tab)).toEqual({ unreached: [], withoutFocusOutline: [] })

    // The person does not confirm on their device: nothing is made, and the link still works.
    await devtools.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false })
    const button = tab.getByRole('button', { name: WORDS[lang].button })
    await button.click()
    await tab.getByText(WORDS[lang].cancelled).waitFor()
    expect(await hub.handle.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined()

    await devtools.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true })
    await button.click()
    await tab.waitForURL('**/dashboard')
    const account = await hub.handle.db.selectFrom('users').select(['id', 'passwordHash', 'emailVerified', 'locale']).where('email', '=', email).executeTakeFirstOrThrow()
    expect(account).toMatchObject({ passwordHash: null, emailVerified: 1, locale: lang })
    const members = await hub.app.inject({ method: 'GET', url: `/api/admin/groups/${group.json<{ id: string }>().id}`, headers: admin.headers })
    expect(members.json<{ accounts: { userId: string }[] }>().accounts.map((one) => one.userId)).toEqual([account.id])
    // The passkey is on the authenticator, discoverable, carrying the account's id.
    const { credentials } = (await devtools.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: { isResidentCredential: boolean; userHandle: string }[] }
    expect(credentials.map((credential) => [credential.isResidentCredential, Buffer.from(credential.userHandle, 'base64').toString()])).toEqual([[true, account.id]])
  })
})
