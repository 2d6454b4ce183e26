import { beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../../../src/hub/kernel/audit/events.js'
import { createAuditTrail } from '../../../../src/hub/kernel/audit/repository.js'
import { createOidcClients } from '../../../../src/hub/features/oidc/clients.js'
import { ACTIVITY_READINGS } from '../../../../src/hub/activity.js'
import type { App } from '../../../../src/shared/http/server.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, type SignedIn, expectStrictPageCsp, hubAppPerSuite, pageCookies, signUpAndLogIn, signedInBy, uniqueEmail } from '../../../helpers/hub-app.js'

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

/**
 * A typical detail of each type, as its route records it. A new type whose sentence has
 * placeholders needs one here, or the "every placeholder filled" test names it.
 */
const SAMPLE_DETAILS: Partial<Record<AuditEventType, Record<string, unknown>>> = {
  signin: { method: 'password' },
  'signin.failed': { reason: 'wrong-password' },
  'session.ended': { scope: 'one', session: 'handle', current: false },
  'passkey.added': { passkey: 'credential-id', name: 'Work laptop' },
  'passkey.renamed': { passkey: 'credential-id', name: 'Old phone' },
  'passkey.removed': { passkey: 'credential-id' },
  'sso-token.issued': { audience: 'tasks' },
  'privacy.updated': { changed: ['cookies'], consents: [] },
  'consent.recorded': { purpose: 'terms', granted: true, version: '1' },
  'export.created': { format: 'csv' },
  'account.disabled': { endedSessions: 1 },
  'password.changed': { sessionsEnded: 0 },
  'email.change.requested': { from: 'old@example.com', to: 'new@example.com' },
  'email.changed': { from: 'old@example.com', to: 'new@example.com' },
  'profile.updated': { changed: ['displayName'] },
  'password.reset': { endedSessions: 2 },
  'session.reauthenticated': { method: 'password', session: 'handle' },
  'recovery-code.used': { remaining: 9 },
  'signin.second-factor.failed': { method: 'totp', attemptsLeft: 4 },
  'billing.plan.changed': { plan: 'pro', status: 'active', source: 'stripe' },
  'billing.group-plan.changed': { groupId: 'g1', group: 'Family', plan: 'pro', source: 'subscription', by: 'admin-1' },
  'billing.checkout.started': { plan: 'pro' },
  'billing.invoice.paid': { total: '12.00 EUR' },
  'billing.payment.failed': { total: '12.00 EUR' },
  'client.added': { clientId: 'wiki', name: 'Wiki' },
  'client.changed': { clientId: 'wiki', name: 'Wiki', changed: ['redirectUris'] },
  'client.removed': { clientId: 'wiki', name: 'Wiki' },
  'client.secret-rotated': { clientId: 'wiki', name: 'Wiki' },
  'group.created': { groupId: 'g', group: 'Family' },
  'group.updated': { groupId: 'g', group: 'Family' },
  'group.deleted': { groupId: 'g', group: 'Family', members: 2 },
  'group.joined': { groupId: 'g', group: 'Family', by: 'admin-id' },
  'group.left': { groupId: 'g', group: 'Family', by: 'admin-id' },
  'invitation.sent': { invitationId: 'i', email: 'ada@example.com', groups: [] },
  'invitation.withdrawn': { invitationId: 'i', email: 'ada@example.com' },
  'invitation.used': { invitationId: 'i', by: 'admin-id' }
}

/** The sentences of the page's activity table, in order. */
const sentencesIn = (html: string) => [...html.matchAll(/<tr data-type="[^"]+"><td data-label="[^"]*">([^<]*)<\/td>/g)].map((match) => match[1])

describe('the activity page', () => {
  it.each(AUDIT_EVENT_TYPES)('has a sentence for "%s" in every language', (type) => {
    for (const [language, sentence] of Object.entries((ACTIVITY_READINGS as Partial<typeof ACTIVITY_READINGS>)[type]?.sentence ?? { en: undefined })) {
      expect(sentence?.trim(), `${language}: ${type}`).toBeTruthy()
    }
  })

  const [database] = databasesUnderTest()
  // The task manager's HUB_APPS entry with a display name of its own (`;name=Chores`).
  const suite = hubAppPerSuite(database!, { config: { appNames: { tasks: 'Chores' } } })
  let app: App
  let user: SignedIn

  /** Signed up and in from Chrome on Linux, as the browser would be. */
  beforeAll(async () => {
    app = suite.app
    const email = uniqueEmail('activity-page')
    const client = { 'user-agent': CHROME_ON_LINUX }
    expect((await app.inject({ method: 'POST', url: '/api/auth/signup', headers: client, payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.3.0.1' })).statusCode).toBe(200)
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', headers: client, payload: { email, password: GOOD_PASSWORD }, remoteAddress: '10.3.0.1' })
    const session = signedInBy(login, email)
    user = { ...session, headers: { ...session.headers, ...client } }
    const exported = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' }, remoteAddress: '10.3.0.2' })
    expect(exported.statusCode).toBe(200)
  })

  const page = (url: string, extraCookies: Record<string, string> = {}, who: SignedIn = user) =>
    app.inject({ method: 'GET', url, headers: pageCookies(who, extraCookies) })

  it('says what happened in English, newest first, with where it came from', async () => {
    const response = await page('/activity', { lang: 'en' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(sentencesIn(response.body)).toEqual(['Exported your data (JSON)', 'Signed in from Chrome on Linux', 'Created your account'])
    expect([...response.body.matchAll(/<\/time><\/td><td data-label="From">([^<]*)<\/td>/g)].map((match) => match[1])).toEqual(['Chrome on Linux · 10.3.0.2', '10.3.0.1', 'Chrome on Linux · 10.3.0.1'])
    expect(response.body).toContain('<h1>Your account activity</h1>')
    expect(response.body).toContain('It is kept for the time you choose: <a href="/privacy">your privacy settings</a>.')
  })

  it('says it in Spanish', async () => {
    const response = await page('/activity', { lang: 'es' })
    expect(response.headers['content-language']).toBe('es')
    expect(sentencesIn(response.body)).toEqual(['Exportaste tus datos (JSON)', 'Iniciaste sesión desde Chrome en Linux', 'Creaste tu cuenta'])
    expect(response.body).toContain('<h1>Actividad de tu cuenta</h1>')
  })

  it.each([
    ['en', 'See your account activity'],
    ['es', 'Ver la actividad de tu cuenta']
  ])('is linked from the dashboard (%s)', async (lang, words) => {
    expect((await page('/dashboard', { lang })).body).toContain(`<a href="/activity">${words}</a>`)
  })

  it('sends a visit without a session to the login page, coming back afterwards', async () => {
    const response = await app.inject({ method: 'GET', url: '/activity' })
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/login?next=%2Factivity')
  })

  it('carries the strict CSP, and its one script tag the response nonce', async () => {
    const response = await page('/activity')
    expectStrictPageCsp(response, '/activity')
  })

  /** The page's "Older activity" link, as a browser follows it; undefined on the oldest page. */
  const olderLink = (body: string) => /<a href="(\/activity\?cursor=[^"]+)" rel="next">/.exec(body)?.[1]?.replace(/&amp;/g, '&')

  it('words every event type in both languages, every placeholder filled, no secret shown', async () => {
    const someone = await signUpAndLogIn(app)
    const trail = createAuditTrail(suite.handle.db)
    for (const type of AUDIT_EVENT_TYPES) {
      await trail.record({ userId: someone.userId, type, detail: SAMPLE_DETAILS[type] ?? {}, ip: '10.4.0.1', userAgent: CHROME_ON_LINUX })
    }
    for (const lang of ['en', 'es']) {
      // The newest page: the 20 latest types; then the older ones, through each page's own link.
      const bodies = [(await page('/activity', { lang }, someone)).body]
      for (let older = olderLink(bodies[0] ?? ''); older !== undefined; older = olderLink(bodies.at(-1) ?? '')) {
        bodies.push((await page(older, { lang }, someone)).body)
      }
      expect(bodies.length).toBeGreaterThan(1)
      const sentences = bodies.flatMap((body) => sentencesIn(body))
      expect(sentences).toHaveLength(AUDIT_EVENT_TYPES.length + 2)
      expect(sentences.filter((sentence) => /[{}]/.test(sentence ?? '')), lang).toEqual([])
      for (const hidden of ['credential-id', 'handle']) expect(bodies.join('')).not.toContain(hidden)
    }
  })

  it('pages by links: "Older activity" goes on, "Newest activity" back, with no event twice', async () => {
    const someone = await signUpAndLogIn(app)
    const trail = createAuditTrail(suite.handle.db)
    for (let index = 0; index < 25; index += 1) await trail.record({ userId: someone.userId, type: 'sso-token.issued', detail: { audience: `app${String(index)}` } })
    const first = await page('/activity', { lang: 'en' }, someone)
    expect(first.body).not.toContain('Newest activity')
    const olderLink = /<a href="(\/activity\?cursor=[^"]+)" rel="next">Older activity<\/a>/.exec(first.body)?.[1] ?? ''
    const second = await page(olderLink, { lang: 'en' }, someone)
    expect(second.body).toContain('<a href="/activity">Newest activity</a>')
    expect(second.body).not.toContain('rel="next"')
    const sentences = [...sentencesIn(first.body), ...sentencesIn(second.body)]
    expect(sentences).toEqual([...Array.from({ length: 25 }, (_, index) => `Opened app${String(24 - index)}`), 'Signed in from lightMyRequest', 'Created your account'])
  })

  it('shows the newest page for a garbled link to an older one', async () => {
    const response = await page('/activity?cursor=garbled', { lang: 'en' })
    expect(response.statusCode).toBe(200)
    expect(sentencesIn(response.body)[0]).toBe('Exported your data (JSON)')
    expect(response.body).not.toContain('Newest activity')
  })

  it('says when nothing is recorded, and names no device it does not know', async () => {
    const someone = await signUpAndLogIn(app)
    await suite.handle.db.deleteFrom('auditEvents').where('userId', '=', someone.userId).execute()
    expect((await page('/activity', { lang: 'en' }, someone)).body).toContain('<p>Nothing recorded yet.</p>')
    await createAuditTrail(suite.handle.db).record({ userId: someone.userId, type: 'signin', detail: { method: 'password' } })
    const body = (await page('/activity', { lang: 'es' }, someone)).body
    expect(sentencesIn(body)).toEqual(['Iniciaste sesión desde un dispositivo desconocido'])
  })

  it('names applications by their display names and OpenID Connect clients by their registered names, not by ids', async () => {
    const someone = await signUpAndLogIn(app)
    const client = { name: 'Family Grafana', redirectUris: ['https://grafana.example/callback'], postLogoutRedirectUris: [], public: false, firstParty: false }
    await createOidcClients(suite.handle.db).add({ ...client, id: 'grafana' }, new Date())
    const trail = createAuditTrail(suite.handle.db)
    await trail.record({ userId: someone.userId, type: 'sso-token.issued', detail: { audience: 'tasks' } })
    await trail.record({ userId: someone.userId, type: 'consent.recorded', detail: { purpose: 'oidc:grafana', granted: true, version: 'openid email' } })
    await trail.record({ userId: someone.userId, type: 'consent.recorded', detail: { purpose: 'data-sharing:tasks', granted: true, version: '2026-01' } })
    // A client removed since: nothing else to call it by than its id.
    await trail.record({ userId: someone.userId, type: 'consent.recorded', detail: { purpose: 'oidc:gone', granted: false, version: 'openid' } })
    const english = (await page('/activity', { lang: 'en' }, someone)).body
    expect(sentencesIn(english).slice(0, 4)).toEqual([
      'Withdrew your consent to Signing in to gone',
      'Gave your consent to Sharing with Chores',
      'Gave your consent to Signing in to Family Grafana',
      'Opened Chores'
    ])
    expect(english).not.toContain('oidc:grafana')
    const spanish = (await page('/activity', { lang: 'es' }, someone)).body
    expect(sentencesIn(spanish).slice(0, 4)).toEqual([
      'Retiraste tu consentimiento para Iniciar sesión en gone',
      'Diste tu consentimiento para Compartir con Chores',
      'Diste tu consentimiento para Iniciar sesión en Family Grafana',
      'Abriste Chores'
    ])
    // The dashboard and the privacy page name it the same way.
    const dashboard = (await page('/dashboard', { lang: 'en' }, someone)).body
    expect(dashboard).toContain('<span class="application-name">Chores</span><a href="http://localhost:3000">Open Chores</a>')
    const privacy = (await page('/privacy', { lang: 'en' }, someone)).body
    expect(privacy).toContain('<label for="field-dataSharing-tasks">Chores</label>')
    expect(privacy).toContain('<th scope="row">Sharing with Chores</th>')
  })

  it('shows a passkey name as text, never as markup', async () => {
    const someone = await signUpAndLogIn(app)
    await createAuditTrail(suite.handle.db).record({ userId: someone.userId, type: 'passkey.added', detail: { name: '<img src=x>' } })
    const body = (await page('/activity', { lang: 'en' }, someone)).body
    expect(body).toContain('Added the passkey “&lt;img src=x>”')
    expect(body).not.toContain('<img')
  })
})
