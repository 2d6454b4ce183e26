import { describe, expect, it } from 'vitest'
import { createAccounts } from '../../../../src/hub/kernel/accounts/accounts.js'
import { createUsersRepository } from '../../../../src/hub/kernel/accounts/repository.js'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, pageCookies, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const ENGLISH = 'en-GB,en;q=0.9'
const SPANISH = 'es-MX,es;q=0.9,en;q=0.5'
const NEW_PASSWORD = 'a brand new passphrase'

describe.each(databasesUnderTest())("account mail and pages in the language the person chose, else the browser's, on $name", (database) => {
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  /** The API's sign-up; `locale` is what the sign-up page sends, its own language. */
  const signUp = async (email: string, headers: Record<string, string>, locale?: string): Promise<SignedIn> => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers, payload: { email, password: GOOD_PASSWORD, ...(locale ? { locale } : {}) } })
    expect(response.statusCode, response.body).toBe(200)
    return logIn(hub.app, email)
  }
  const localeOf = async (user: SignedIn) =>
    (await hub.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })).json<{ locale: string | null }>().locale
  /** The dashboard's language for this browser: its `lang` and heading. */
  const dashboardFor = async (user: SignedIn, acceptLanguage: string) => {
    const response = await hub.app.inject({ method: 'GET', url: '/dashboard', headers: { ...pageCookies(user), 'accept-language': acceptLanguage } })
    expect(response.statusCode, response.body).toBe(200)
    return { lang: response.headers['content-language'], heading: /<h1>([^<]*)<\/h1>/.exec(response.body)?.[1] }
  }
  /** Waits for `count` mails to the address; their subjects, oldest first. */
  const subjectsTo = async (email: string, count: number) => (await mailsTo(smtp.server, email, count)).map(({ subject }) => subject)
  const anonymousPost = async (url: string, payload: object, acceptLanguage: string) =>
    hub.app.inject({ method: 'POST', url, headers: { ...(await anonymousHeaders(hub.app)), 'accept-language': acceptLanguage }, payload })

  it("stores a language only when the person chose one: the sign-up page's, else the switch; never Accept-Language alone", async () => {
    const byPage = uniqueEmail('page')
    expect(await localeOf(await signUp(byPage, { 'accept-language': ENGLISH }, 'es'))).toBe('es')
    expect(await subjectsTo(byPage, 1)).toEqual(['Confirma tu dirección en Hearth'])

    const bySwitch = uniqueEmail('switch')
    expect(await localeOf(await signUp(bySwitch, { cookie: 'lang=es', 'accept-language': ENGLISH }))).toBe('es')
    expect(await subjectsTo(bySwitch, 1)).toEqual(['Confirma tu dirección en Hearth'])

    // No choice: nothing stored, and the first mail is in the language of the sign-up request.
    const byHeader = uniqueEmail('header')
    expect(await localeOf(await signUp(byHeader, { 'accept-language': SPANISH }))).toBeNull()
    expect(await subjectsTo(byHeader, 1)).toEqual(['Confirma tu dirección en Hearth'])

    const byNothing = uniqueEmail('nothing')
    expect(await localeOf(await signUp(byNothing, {}))).toBeNull()
    expect(await subjectsTo(byNothing, 1)).toEqual(['Confirm your address for Hearth'])

    const refused = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: uniqueEmail('fr'), password: GOOD_PASSWORD, locale: 'fr' } })
    expect(refused.statusCode).toBe(400)
    expect(refused.json<{ error: string }>().error).toMatch(/locale/i)
  })

  it('gives an account made without a choice, by the API or as users:create makes it, the pages of a Spanish browser', async () => {
    const byApi = await signUp(uniqueEmail('api'), {})
    expect(await dashboardFor(byApi, SPANISH)).toEqual({ lang: 'es', heading: 'Panel' })
    expect(await dashboardFor(byApi, ENGLISH)).toEqual({ lang: 'en', heading: 'Dashboard' })

    // users:create calls exactly this, with no language.
    const byCli = uniqueEmail('cli')
    await createAccounts(createUsersRepository(hub.handle.db)).create({ email: byCli, password: GOOD_PASSWORD }, new Date())
    const cliUser = await logIn(hub.app, byCli)
    expect(await localeOf(cliUser)).toBeNull()
    expect(await dashboardFor(cliUser, SPANISH)).toEqual({ lang: 'es', heading: 'Panel' })
  })

  it('keeps English for a person who chose it, over a Spanish browser', async () => {
    const chose = await signUp(uniqueEmail('chose'), { 'accept-language': SPANISH }, 'en')
    expect(await localeOf(chose)).toBe('en')
    expect(await dashboardFor(chose, SPANISH)).toEqual({ lang: 'en', heading: 'Dashboard' })
  })

  it('mails an account without a choice in the language of the request that caused the mail, else English', async () => {
    const email = uniqueEmail('sin-eleccion')
    const user = await signUp(email, {})
    await subjectsTo(email, 1)
    const spanish = { ...user.headers, 'accept-language': SPANISH }
    expect((await hub.app.inject({ method: 'POST', url: '/api/account/email/verification', headers: spanish })).statusCode).toBe(204)
    expect((await subjectsTo(email, 2))[1]).toBe('Confirma tu dirección en Hearth')

    const passwordChange = await hub.app.inject({ method: 'PUT', url: '/api/account/password', headers: spanish, payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })
    expect(passwordChange.statusCode, passwordChange.body).toBe(204)
    expect((await subjectsTo(email, 3))[2]).toBe('Se ha cambiado tu contraseña de Hearth')

    expect((await anonymousPost('/api/auth/password-reset', { email }, ENGLISH)).statusCode).toBe(204)
    expect((await subjectsTo(email, 4))[3]).toBe('Reset your Hearth password')
    // A request naming no language: English.
    const bare = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email } })
    expect(bare.statusCode).toBe(204)
    expect((await subjectsTo(email, 5))[4]).toBe('Reset your Hearth password')
  })

  it('mails a Spanish account in Spanish whatever language each request asks for', async () => {
    const email = uniqueEmail('cuenta')
    const user = await signUp(email, { 'accept-language': ENGLISH }, 'es')
    await subjectsTo(email, 1)
    const english = { ...user.headers, 'accept-language': ENGLISH }

    expect((await hub.app.inject({ method: 'POST', url: '/api/account/email/verification', headers: english })).statusCode).toBe(204)
    expect((await subjectsTo(email, 2))[1]).toBe('Confirma tu dirección en Hearth')

    const newEmail = uniqueEmail('nueva')
    const change = await hub.app.inject({ method: 'POST', url: '/api/account/email', headers: english, payload: { email: newEmail, currentPassword: GOOD_PASSWORD } })
    expect(change.statusCode, change.body).toBe(204)
    expect(await subjectsTo(newEmail, 1)).toEqual(['Confirma la nueva dirección de tu cuenta de Hearth'])
    expect((await subjectsTo(email, 3))[2]).toBe('Se ha pedido una nueva dirección para tu cuenta de Hearth')

    const passwordChange = await hub.app.inject({ method: 'PUT', url: '/api/account/password', headers: english, payload: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })
    expect(passwordChange.statusCode, passwordChange.body).toBe(204)
    expect((await subjectsTo(email, 4))[3]).toBe('Se ha cambiado tu contraseña de Hearth')

    expect((await anonymousPost('/api/auth/password-reset', { email }, ENGLISH)).statusCode).toBe(204)
    const resetMail = (await mailsTo(smtp.server, email, 5))[4]
    expect(resetMail?.subject).toBe('Restablece tu contraseña de Hearth')
    const confirmed = await anonymousPost('/api/auth/password-reset/confirm', { token: linkToken(resetMail, '/reset-password'), password: GOOD_PASSWORD }, ENGLISH)
    // 200: the first proof of the address; the notice says so in Spanish too.
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect((await subjectsTo(email, 6))[5]).toBe('Se ha cambiado tu contraseña de Hearth')
  })

  it('mails an English account in English when the request asks for Spanish', async () => {
    const email = uniqueEmail('english')
    await signUp(email, { 'accept-language': ENGLISH }, 'en')
    await subjectsTo(email, 1)
    expect((await anonymousPost('/api/auth/password-reset', { email }, SPANISH)).statusCode).toBe(204)
    expect((await subjectsTo(email, 2))[1]).toBe('Reset your Hearth password')
  })
})
