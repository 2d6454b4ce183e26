import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { OUTBOX_DIRECTORY } from '../../../../src/hub/kernel/mail/transport.js'
import { LANGUAGE_COOKIE } from '../../../../src/hub/kernel/language/language.js'
import { anonymousHeaders } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, pageCookies, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const COMMAND = 'npm run hub -- mail:outbox'
const NOTE_EN = 'This hub sends no mail: HUB_SMTP_URL is not set, so each mail it promises here is written to the outbox folder'
const NOTE_ES = 'Este hub no envía correo: HUB_SMTP_URL no está configurada'

/** Without HUB_SMTP_URL the hub writes its mail to DATA_DIR/outbox (issue 27): the pages say so, and its links can be copied. */
describe.each(databasesUnderTest())('the mail outbox on $name', (database) => {
  const hub = useHubApp(database, { mailSenderIntervalMs: 50 })
  const page = (url: string, headers: Record<string, string> = {}) => hub.app.inject({ method: 'GET', url, headers })
  const outbox = () => path.join(hub.handle.dataDir, OUTBOX_DIRECTORY)

  it('pages that promise a mail say it went to the outbox, with the command that shows it, in English and Spanish', async () => {
    const user = await signUpAndLogIn(hub.app)
    // The language switch's cookie, which wins over the account's language and the browser's.
    const cookies = (language: string) => ({ cookie: `${LANGUAGE_COOKIE}=${language}` })
    const signedIn = (language: string) => pageCookies(user, { [LANGUAGE_COOKIE]: language })
    for (const [url, headers] of [
      ['/signup', cookies],
      ['/forgot-password', cookies],
      ['/login?notice=account-deleted', cookies],
      ['/account', signedIn]
    ] as const) {
      const english = await page(url, headers('en'))
      expect(english.statusCode, url).toBe(200)
      expect(english.body, url).toContain(`<p class="notice" data-mail-outbox="true">${NOTE_EN}`)
      expect(english.body, url).toContain(`<code>${COMMAND}</code>`)
      const spanish = (await page(url, headers('es'))).body
      expect(spanish, url).toContain(NOTE_ES)
      expect(spanish, url).toContain(`<code>${COMMAND}</code>`)
    }
    // The reset request's answer does not send the person to an inbox that gets nothing.
    const forgot = (await page('/forgot-password')).body
    expect(forgot).toContain(`data-msg-done="If {email} belongs to an account, a link for it was written to the hub's outbox, not mailed: whoever runs the hub reads it with ${COMMAND}"`)
    expect(forgot).not.toContain('Check your inbox')
    // Pages that promise no mail say nothing of it.
    for (const url of ['/login', '/login?notice=password-reset']) expect((await page(url)).body, url).not.toContain('data-mail-outbox')
  })

  it('a reset link copied from the outbox file as it stands there resets the password', async () => {
    const email = uniqueEmail('outbox')
    await signUpAndLogIn(hub.app, email)
    const requested = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email } })
    expect(requested.statusCode, requested.body).toBe(204)

    // The file a person opens: the newest text file beside the .eml files, read as plain text.
    const text = await vi.waitFor(
      () => {
        for (const name of fs.readdirSync(outbox()).filter((file) => file.endsWith('.txt'))) {
          const content = fs.readFileSync(path.join(outbox(), name), 'utf8')
          if (content.includes(`To: ${email}`) && content.includes('/reset-password#')) return content
        }
        throw new Error('no reset mail in the outbox yet')
      },
      { timeout: 10_000, interval: 50 }
    )
    // The link as a person selects it: from http to the end of its line.
    const copied = /http\S+/.exec(text.split('\n').find((line) => line.includes('/reset-password#')) ?? '')?.[0] ?? ''
    const link = new URL(copied)
    expect(link.origin + link.pathname).toBe(`${HUB_ORIGIN}/reset-password`)
    // What the page's script does with it: the token from the fragment, sent with the new password.
    expect((await page(link.pathname)).statusCode).toBe(200)
    const token = new URLSearchParams(link.hash.slice(1)).get('token') ?? ''
    const confirmed = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      headers: await anonymousHeaders(hub.app),
      payload: { token, password: 'a brand new passphrase' }
    })
    // 200, not 204: the reset is the first proof of this never-confirmed address (docs/account.md, "Account pre-hijacking").
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const login = (password: string) => hub.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: '10.7.0.1' })
    expect((await login(GOOD_PASSWORD)).statusCode).toBe(401)
    expect((await login('a brand new passphrase')).statusCode).toBe(200)
    // Owner-only, as the .eml beside it: the link is a credential.
    const txt = fs.readdirSync(outbox()).find((name) => name.endsWith('.txt')) ?? ''
    expect(fs.statSync(path.join(outbox(), txt)).mode & 0o777).toBe(0o600)
    expect(fs.existsSync(path.join(outbox(), txt.replace(/\.txt$/, '.eml')))).toBe(true)
  })
})

describe('pages of a hub that sends its mail', () => {
  const [database] = databasesUnderTest()
  // A port nothing listens on: mail waits in the queue, the pages are what is tested.
  const hub = useHubApp(database!, { config: { smtpUrl: smtpUrlFor(1) } })

  it('mention no outbox and send the person to their inbox', async () => {
    for (const url of ['/signup', '/forgot-password', '/login?notice=account-deleted']) {
      expect((await hub.app.inject({ url })).body, url).not.toContain('data-mail-outbox')
    }
    expect((await hub.app.inject({ url: '/forgot-password' })).body).toContain('Check your inbox.')
  })
})
