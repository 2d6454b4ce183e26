import { describe, expect, it } from 'vitest'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../helpers/account-mail.js'
import { databasesUnderTest } from '../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, logIn, uniqueEmail, useHubApp } from '../../helpers/hub-app.js'
import { smtpUrlFor } from '../../helpers/smtp-server.js'

const ENGLISH = 'en-GB,en;q=0.9'
const SPANISH = 'es-MX,es;q=0.9,en;q=0.5'
const NEW_PASSWORD = 'a brand new passphrase'

describe.each(databasesUnderTest())("account mail in the account's language on $name", (database) => {
  const smtp = useSmtpServer()
  const hub = useHubApp(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  const signUp = async (email: string, headers: Record<string, string>): Promise<SignedIn> => {
    const response = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers, payload: { email, password: GOOD_PASSWORD } })
    expect(response.statusCode, response.body).toBe(200)
    return logIn(hub.app, email)
  }
  const localeOf = async (user: SignedIn) =>
    (await hub.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: user.headers.cookie ?? '' } })).json<{ locale: string }>().locale
  /** Waits for `count` mails to the address; their subjects, oldest first. */
  const subjectsTo = async (email: string, count: number) => (await mailsTo(smtp.server, email, count)).map(({ subject }) => subject)
  const anonymousPost = async (url: string, payload: object, acceptLanguage: string) =>
    hub.app.inject({ method: 'POST', url, headers: { ...(await anonymousHeaders(hub.app)), 'accept-language': acceptLanguage }, payload })

  it('starts an account in the language its person signed up in: the switch, else Accept-Language, else English', async () => {
    const byHeader = uniqueEmail('header')
    expect(await localeOf(await signUp(byHeader, { 'accept-language': SPANISH }))).toBe('es')
    expect(await subjectsTo(byHeader, 1)).toEqual(['Confirma tu dirección en Hearth'])

    const bySwitch = uniqueEmail('switch')
    expect(await localeOf(await signUp(bySwitch, { cookie: 'lang=es', 'accept-language': ENGLISH }))).toBe('es')
    expect(await subjectsTo(bySwitch, 1)).toEqual(['Confirma tu dirección en Hearth'])

    const byDefault = uniqueEmail('default')
    expect(await localeOf(await signUp(byDefault, {}))).toBe('en')
    expect(await subjectsTo(byDefault, 1)).toEqual(['Confirm your address for Hearth'])
  })

  it('mails a Spanish account in Spanish whatever language each request asks for', async () => {
    const email = uniqueEmail('cuenta')
    const user = await signUp(email, { 'accept-language': SPANISH })
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
    await signUp(email, { 'accept-language': ENGLISH })
    await subjectsTo(email, 1)
    expect((await anonymousPost('/api/auth/password-reset', { email }, SPANISH)).statusCode).toBe(204)
    expect((await subjectsTo(email, 2))[1]).toBe('Reset your Hearth password')
  })
})
