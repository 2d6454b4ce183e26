import type { ParsedMail } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { REMEMBERED_DEVICES } from '../../../../src/hub/kernel/sessions/known-devices.js'
import { totpCode } from '../../../../src/hub/features/two-step/totp.js'
import type { App } from '../../../../src/shared/http/server.js'
import { anonymousHeaders, confirmAddress, useSmtpServer } from '../../../helpers/account-mail.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, HUB_ORIGIN, TEST_HUB_CONFIG, signedInBy, testClock, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { type CreationOptionsJson, type RequestOptionsJson, softwareAuthenticator } from '../../../helpers/software-authenticator.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'
import { TOTP_STEP_MS, turnOnTwoStep } from '../../../helpers/two-step.js'

const SYSTEMS = { Linux: 'X11; Linux x86_64', Windows: 'Windows NT 10.0; Win64; x64', macOS: 'Macintosh; Intel Mac OS X 10_15_7' }
const chrome = (system: string, version = 124) => `Mozilla/5.0 (${system}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`
const firefox = (system: string) => `Mozilla/5.0 (${system}; rv:125.0) Gecko/20100101 Firefox/125.0`
/** Twelve user agents, each naming another device ("Opera on macOS"...). */
const DEVICES = Object.values(SYSTEMS).flatMap((system) => [chrome(system), `${chrome(system)} Edg/124.0.0.0`, `${chrome(system)} OPR/109.0.0.0`, firefox(system)])
const CHROME_ON_LINUX = chrome(SYSTEMS.Linux)
const FIREFOX_ON_WINDOWS = firefox(SYSTEMS.Windows)

const TEST_PUBLIC_URL = TEST_HUB_CONFIG.publicUrl
const SUBJECTS = ['A sign-in to your Hearth account from a new device', 'Inicio de sesión en tu cuenta de Hearth desde un dispositivo nuevo']

describe.each(databasesUnderTest())('the new-device notice on $name', (database) => {
  const smtp = useSmtpServer()
  const clock = testClock()
  const rateLimits = { signupsPerIp: { limit: 1000, windowMs: 60_000 }, signInsPerAccount: { limit: 1000, windowMs: 60_000 } }
  const hub = useHubApp(database, () => ({ now: clock.now, config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50, rateLimits }))

  const login = (email: string, userAgent: string, ip = '10.0.0.1', headers: Record<string, string> = {}) =>
    hub.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'user-agent': userAgent, ...headers }, payload: { email, password: GOOD_PASSWORD }, remoteAddress: ip })
  /** `locale`: the language the person chose on the sign-up page; none, and mail follows each request. */
  const signUp = async (email: string, headers: Record<string, string> = {}, locale?: string) => {
    const signup = await hub.app.inject({ method: 'POST', url: '/api/auth/signup', headers, payload: { email, password: GOOD_PASSWORD, ...(locale ? { locale } : {}) } })
    expect(signup.statusCode, signup.body).toBe(200)
  }
  /** The notices the address received, once every mail queued for it has gone out. */
  const noticesTo = async (email: string): Promise<ParsedMail[]> => {
    const queued = () => hub.handle.db.selectFrom('mailQueue').select('id').where('recipient', '=', email).where('status', '=', 'pending').execute()
    await expect.poll(async () => (await queued()).length, { timeout: 10_000 }).toBe(0)
    return smtp.server.received.filter((mail) => [mail.to].flat().some((to) => to?.value.some(({ address }) => address === email)) && SUBJECTS.includes(mail.subject ?? ''))
  }
  const signInDetails = async (userId: string) =>
    (await hub.handle.db.selectFrom('auditEvents').select('detail').where('userId', '=', userId).where('type', '=', 'signin').orderBy('createdAt').execute()).map(
      ({ detail }) => JSON.parse(detail) as unknown
    )
  const signedInOk = async (response: Awaited<ReturnType<App['inject']>>) => expect(response.statusCode, response.body).toBe(200)

  it('is not sent for the first sign-in of an account, nor again from the same browser, even updated or from another IP', async () => {
    const email = uniqueEmail('familiar')
    await signUp(email)
    await signedInOk(await login(email, CHROME_ON_LINUX))
    await signedInOk(await login(email, CHROME_ON_LINUX))
    await signedInOk(await login(email, chrome(SYSTEMS.Linux, 125), '192.0.2.7'))
    expect(await noticesTo(email)).toEqual([])
  })

  it('names the new device, the time and the IP, links to the security page, and marks the sign-in in the audit trail', async () => {
    const email = uniqueEmail('travelling')
    await signUp(email)
    const first = await login(email, CHROME_ON_LINUX)
    await signedInOk(first)
    clock.advance(60_000)
    await signedInOk(await login(email, FIREFOX_ON_WINDOWS, '198.51.100.23'))

    const [notice, ...others] = await noticesTo(email)
    expect(others).toEqual([])
    expect(notice?.subject).toBe('A sign-in to your Hearth account from a new device')
    expect(notice?.text).toContain(`Someone signed in to the Hearth account ${email} from a device it had not been signed in from before.`)
    expect(notice?.text).toMatch(/Device: Firefox on Windows\. Time: January 1, 2030 at 12:01:00\sAM UTC\. IP address: 198\.51\.100\.23\./)
    expect(notice?.text).toContain(`${TEST_PUBLIC_URL}/account/security`)
    expect(notice?.html).toContain(`href="${TEST_PUBLIC_URL}/account/security"`)

    expect(await signInDetails(first.json<{ userId: string }>().userId)).toEqual([{ method: 'password' }, { method: 'password', newDevice: true }])
    // Known from now on.
    const again = await login(email, FIREFOX_ON_WINDOWS)
    await signedInOk(again)
    expect(await noticesTo(email)).toHaveLength(1)

    // The export shows what the hub remembers: device names and dates, no user agent, no IP.
    const user = signedInBy(again, email)
    const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
    expect(exported.statusCode, exported.body).toBe(200)
    expect(exported.json<{ datasets: { knownDevices: unknown[] } }>().datasets.knownDevices).toEqual([
      { id: 'Chrome on Linux', recordedAt: '2030-01-01T00:00:00.000Z', lastSeenAt: '2030-01-01T00:00:00.000Z' },
      { id: 'Firefox on Windows', recordedAt: '2030-01-01T00:01:00.000Z', lastSeenAt: '2030-01-01T00:01:00.000Z' }
    ])
  })

  it('is written in the account’s language', async () => {
    const email = uniqueEmail('viajera')
    await signUp(email, {}, 'es')
    await signedInOk(await login(email, CHROME_ON_LINUX))
    await signedInOk(await login(email, FIREFOX_ON_WINDOWS, '198.51.100.23', { 'accept-language': 'en' }))

    const [notice] = await noticesTo(email)
    expect(notice?.subject).toBe('Inicio de sesión en tu cuenta de Hearth desde un dispositivo nuevo')
    expect(notice?.text).toMatch(/Dispositivo: Firefox en Windows\. Hora: 1 de enero de 2030.* UTC\. Dirección IP: 198\.51\.100\.23\./)
  })

  it('is written in the signing-in browser’s language for an account whose person chose none', async () => {
    const email = uniqueEmail('sin-idioma')
    await signUp(email)
    await signedInOk(await login(email, CHROME_ON_LINUX))
    await signedInOk(await login(email, FIREFOX_ON_WINDOWS, '10.0.0.1', { 'accept-language': 'es-ES,es;q=0.9' }))
    expect((await noticesTo(email)).map((notice) => notice.subject)).toEqual(['Inicio de sesión en tu cuenta de Hearth desde un dispositivo nuevo'])
  })

  it('counts a user agent that names nothing as one device of its own', async () => {
    const email = uniqueEmail('anonymous')
    await signUp(email)
    await signedInOk(await login(email, CHROME_ON_LINUX))
    await signedInOk(await login(email, ''))
    await signedInOk(await login(email, 'curl/8.5.0'))
    const notices = await noticesTo(email)
    expect(notices).toHaveLength(1)
    expect(notices[0]?.text).toContain('Device: not recognised.')
  })

  it('follows a login finished with a second step, or made with a passkey', async () => {
    const email = uniqueEmail('two-step')
    await signUp(email)
    const user = signedInBy(await login(email, CHROME_ON_LINUX), email)
    await confirmAddress(hub.app, hub.handle.db, user, clock.now())
    const { secret } = await turnOnTwoStep(hub.app, user, clock.now())
    const authenticator = softwareAuthenticator(HUB_ORIGIN)
    const creation = await hub.app.inject({ method: 'POST', url: '/api/account/passkeys/options', headers: user.headers })
    const added = await hub.app.inject({ method: 'POST', url: '/api/account/passkeys', headers: user.headers, payload: { response: authenticator.create(creation.json<CreationOptionsJson>()) } })
    expect(added.statusCode, added.body).toBe(201)

    const passwordStep = await login(email, FIREFOX_ON_WINDOWS)
    const { challenge } = passwordStep.json<{ challenge: string }>()
    clock.advance(TOTP_STEP_MS)
    const secondStep = await hub.app.inject({
      method: 'POST',
      url: '/api/auth/login/second-factor',
      headers: { 'user-agent': FIREFOX_ON_WINDOWS },
      payload: { challenge, code: totpCode(secret, clock.now()) }
    })
    await signedInOk(secondStep)

    const anonymous = { ...(await anonymousHeaders(hub.app)), 'user-agent': DEVICES[2] ?? '' }
    const request = await hub.app.inject({ method: 'POST', url: '/api/auth/passkey/options', headers: anonymous })
    const response = authenticator.get(request.json<RequestOptionsJson>())
    await signedInOk(await hub.app.inject({ method: 'POST', url: '/api/auth/passkey', headers: anonymous, payload: { response } }))

    const devices = (await noticesTo(email)).map((notice) => /Device: ([^.]+)\./.exec(notice.text ?? '')?.[1])
    expect(devices.sort()).toEqual(['Firefox on Windows', 'Opera on Linux'])
  })

  it('records a known device’s last sign-in at most once a day', async () => {
    const email = uniqueEmail('daily')
    await signUp(email)
    const firstAt = clock.now().toISOString()
    await signedInOk(await login(email, CHROME_ON_LINUX))
    /** Signs in from the same browser, and answers its last sign-in as the export shows it. */
    const signInAndReadLastSeen = async () => {
      const user = signedInBy(await login(email, CHROME_ON_LINUX), email)
      const exported = await hub.app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
      expect(exported.statusCode, exported.body).toBe(200)
      return exported.json<{ datasets: { knownDevices: { lastSeenAt: string }[] } }>().datasets.knownDevices.map((device) => device.lastSeenAt)
    }
    clock.advance(23 * 60 * 60_000)
    expect(await signInAndReadLastSeen()).toEqual([firstAt])
    clock.advance(60 * 60_000)
    expect(await signInAndReadLastSeen()).toEqual([clock.now().toISOString()])
  })

  it(`remembers the ${REMEMBERED_DEVICES} devices signed in from last: an older one is new again`, async () => {
    const email = uniqueEmail('collector')
    await signUp(email)
    const devices = DEVICES.slice(0, REMEMBERED_DEVICES + 1)
    for (const userAgent of devices) {
      clock.advance(1000)
      await signedInOk(await login(email, userAgent))
    }
    expect(await noticesTo(email)).toHaveLength(REMEMBERED_DEVICES)
    // The first was forgotten when the eleventh was remembered; the second is still known.
    clock.advance(1000)
    await signedInOk(await login(email, devices[1] ?? ''))
    clock.advance(1000)
    await signedInOk(await login(email, devices[0] ?? ''))
    expect(await noticesTo(email)).toHaveLength(REMEMBERED_DEVICES + 1)
  })
})
