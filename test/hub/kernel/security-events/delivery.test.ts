import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSecurityEventOutbox } from '../../../../src/hub/kernel/security-events/outbox.js'
import { dueSecurityEventSender } from '../../../../src/hub/kernel/security-events/sender.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { SECURITY_EVENT_TYPES } from '../../../../src/shared/security-events/security-event-token.js'
import { anonymousHeaders, linkToken, mailsTo, useSmtpServer } from '../../../helpers/account-mail.js'
import { type TestDatabase, databasesUnderTest, useDatabase } from '../../../helpers/databases.js'
import { appsWithEventsAt, startTasksApp, useFamilyApps } from '../../../helpers/family-apps.js'
import { HUB_ORIGIN, buildTestHubApp, signUpAndLogIn, logIn } from '../../../helpers/hub-app.js'
import { freshKeyring } from '../../../helpers/security-events.js'
import { freePort } from '../../../helpers/server-process.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

/** An application's events endpoint that answers each push with the next status given, then 202. */
async function startReceiver(statuses: number[] = []) {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      const status = statuses.shift() ?? 202
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(status === 202 ? '' : JSON.stringify({ err: 'invalid_request', description: `refused with ${status}` }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/events`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.each(databasesUnderTest())('security events from the hub on $name', (database) => {
  describe('to a task manager running apart', () => {
    const family = useFamilyApps(database)

    it('delivers sessions-revoked on "sign out everywhere" and the task manager takes it', async () => {
      const person = await signUpAndLogIn(family.hub)
      const ended = await family.hub.inject({ method: 'DELETE', url: '/api/account/sessions', headers: person.headers })
      expect(ended.statusCode).toBe(204)
      const [event] = await family.hubHandle.db.selectFrom('securityEventOutbox').selectAll().where('userId', '=', person.userId).execute()
      expect(event).toMatchObject({ applicationId: 'tasks', eventType: SECURITY_EVENT_TYPES.sessionsRevoked })
      await vi.waitFor(async () => expect(await family.hubHandle.db.selectFrom('securityEventOutbox').selectAll().execute()).toEqual([]), { timeout: 10_000 })
      expect(await family.tasksHandle.db.selectFrom('receivedSecurityEvents').select('jti').execute()).toEqual([{ jti: event?.id }])
    })
  })

  describe('as the hub signs and pushes them', () => {
    const smtp = useSmtpServer()
    const receiver = {} as Awaited<ReturnType<typeof startReceiver>>
    const handle = useDatabase(database)
    const hub = {} as { app: Awaited<ReturnType<typeof buildTestHubApp>> }
    beforeAll(async () => {
      Object.assign(receiver, await startReceiver())
      hub.app = await buildTestHubApp(handle.current, {
        config: { smtpUrl: smtpUrlFor(smtp.server.port), appEvents: { tasks: receiver.url } },
        mailSenderIntervalMs: 50,
        securityEventSenderIntervalMs: 50
      })
    })
    afterAll(async () => {
      await hub.app.close()
      await receiver.close()
    })

    it('POSTs a SET as application/secevent+jwt: typ, iss, aud the application id, jti, iat, toe, sub_id and the event, signed with the SSO keys', async () => {
      const person = await signUpAndLogIn(hub.app)
      expect((await hub.app.inject({ method: 'DELETE', url: '/api/account/sessions', headers: person.headers })).statusCode).toBe(204)
      await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThan(0))
      const [push] = receiver.received
      expect(push?.headers['content-type']).toBe('application/secevent+jwt')
      expect(push?.headers.accept).toBe('application/json')
      const token = push?.body ?? ''
      expect(decodeProtectedHeader(token).typ).toBe('secevent+jwt')
      const jwks = (await hub.app.inject({ url: '/.well-known/jwks.json' })).json()
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: HUB_ORIGIN, audience: 'tasks', typ: 'secevent+jwt' })
      const subject = { format: 'opaque', id: person.userId }
      expect(payload).toEqual({
        iss: HUB_ORIGIN,
        aud: 'tasks',
        jti: expect.any(String),
        iat: expect.any(Number),
        toe: expect.any(Number),
        sub_id: subject,
        events: { [SECURITY_EVENT_TYPES.sessionsRevoked]: { subject } }
      })
    })

    it('sends sessions-revoked when a password reset is completed', async () => {
      const person = await signUpAndLogIn(hub.app)
      const before = receiver.received.length
      expect((await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub.app), payload: { email: person.email } })).statusCode).toBe(204)
      const token = linkToken((await mailsTo(smtp.server, person.email, 2)).find((mail) => mail.text?.includes('/reset-password')), '/reset-password')
      const confirmed = await hub.app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', headers: await anonymousHeaders(hub.app), payload: { token, password: 'a brand new passphrase' } })
      // 200: the first proof of the address, which also says what it removed.
      expect(confirmed.statusCode).toBe(200)
      await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThan(before))
      const { payload } = await jwtVerify(receiver.received.at(-1)?.body ?? '', createLocalJWKSet((await hub.app.inject({ url: '/.well-known/jwks.json' })).json()))
      expect(payload.events).toEqual({ [SECURITY_EVENT_TYPES.sessionsRevoked]: { subject: { format: 'opaque', id: person.userId } } })
    })

    it('sends account-purged on deletion', async () => {
      const person = await signUpAndLogIn(hub.app)
      const before = receiver.received.length
      expect((await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: { password: 'correct horse battery staple' } })).statusCode).toBe(204)
      await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThan(before))
      const { payload } = await jwtVerify(receiver.received.at(-1)?.body ?? '', createLocalJWKSet((await hub.app.inject({ url: '/.well-known/jwks.json' })).json()))
      expect(payload.events).toEqual({ [SECURITY_EVENT_TYPES.accountPurged]: { subject: { format: 'opaque', id: person.userId } } })
    })
  })

  describe('retried', () => {
    const handle = useDatabase(database)

    it('with a delay that doubles after each answer other than 202, until the application answers 202', async () => {
      const receiver = await startReceiver([503, 400])
      try {
        const { db } = handle.current
        const outbox = createSecurityEventOutbox(db, ['tasks'])
        let clock = Date.parse('2030-01-01T00:00:00.000Z')
        const sendDue = dueSecurityEventSender({
          outbox,
          keyring: await freshKeyring(),
          issuer: HUB_ORIGIN,
          endpoints: { tasks: receiver.url },
          logger: createLogger('silent'),
          now: () => new Date(clock),
          intervalMs: 1_000
        })
        await db.transaction().execute((trx) => outbox.record(trx, SECURITY_EVENT_TYPES.sessionsRevoked, 'user-1', new Date(clock)))

        await sendDue()
        expect(await outbox.pending()).toMatchObject([{ attempts: 1, nextAttemptAt: new Date(clock + 1_000).toISOString(), lastError: expect.stringMatching(/^503 /) }])
        await sendDue()
        expect(receiver.received).toHaveLength(1)

        clock += 1_000
        await sendDue()
        expect(await outbox.pending()).toMatchObject([{ attempts: 2, nextAttemptAt: new Date(clock + 2_000).toISOString(), lastError: expect.stringMatching(/^400 .*invalid_request/) }])
        clock += 2_000
        await sendDue()
        expect(await outbox.pending()).toEqual([])
        expect(receiver.received).toHaveLength(3)
        // Every attempt is signed afresh, under the same jti.
        const jtis = new Set(receiver.received.map(({ body }) => JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString()).jti))
        expect(jtis.size).toBe(1)
      } finally {
        await receiver.close()
      }
    })
  })

  describe('to an application without an endpoint', () => {
    const handle = useDatabase(database)

    it('keeps the event, saying why, until HUB_APPS names one', async () => {
      const { db } = handle.current
      const outbox = createSecurityEventOutbox(db, ['notes'])
      await db.transaction().execute((trx) => outbox.record(trx, SECURITY_EVENT_TYPES.accountPurged, 'user-2', new Date()))
      const options = { outbox, keyring: await freshKeyring(), issuer: HUB_ORIGIN, logger: createLogger('silent'), now: () => new Date(), intervalMs: 1_000 }
      await dueSecurityEventSender({ ...options, endpoints: {} })()
      expect(await outbox.pending()).toMatchObject([{ applicationId: 'notes', attempts: 1, lastError: 'HUB_APPS names no events endpoint for notes' }])
    })
  })

  describe('across a hub restart', () => {
    let hubHandle: TestDatabase
    let tasksHandle: TestDatabase
    beforeAll(async () => {
      hubHandle = await database.open()
      tasksHandle = await database.open()
    })
    afterAll(async () => {
      await hubHandle.destroy()
      await tasksHandle.destroy()
    })

    it('delivers an event recorded before the restart once the application answers', async () => {
      // The task manager is not up yet: the first hub cannot deliver.
      const port = await freePort()
      const first = await buildTestHubApp(hubHandle, { config: appsWithEventsAt(port), securityEventSenderIntervalMs: 50 })
      const person = await signUpAndLogIn(first)
      await logIn(first, person.email)
      expect((await first.inject({ method: 'DELETE', url: '/api/account/sessions', headers: person.headers })).statusCode).toBe(204)
      await vi.waitFor(async () => expect(await hubHandle.db.selectFrom('securityEventOutbox').select('lastError').execute()).toEqual([{ lastError: expect.stringContaining('ECONNREFUSED') }]))
      const [waiting] = await hubHandle.db.selectFrom('securityEventOutbox').select('id').execute()
      await first.close()

      const tasks = await startTasksApp(tasksHandle, hubHandle.dataDir, port)
      const second = await buildTestHubApp(hubHandle, { config: appsWithEventsAt(port), securityEventSenderIntervalMs: 50 })
      try {
        await vi.waitFor(async () => expect(await hubHandle.db.selectFrom('securityEventOutbox').selectAll().execute()).toEqual([]), { timeout: 10_000 })
        expect(await tasksHandle.db.selectFrom('receivedSecurityEvents').select('jti').execute()).toEqual([{ jti: waiting?.id }])
      } finally {
        await second.close()
        await tasks.app.close()
      }
    })
  })
})
