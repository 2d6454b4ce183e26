import { describe, expect, it, vi } from 'vitest'
import { createMailQueue } from '../../../../src/hub/kernel/mail/queue.js'
import { createGrantsRepository } from '../../../../src/shared/access-grants/repository.js'
import { anonymousHeaders, useSmtpServer } from '../../../helpers/account-mail.js'
import { rowsMentioning } from '../../../helpers/database-catalogue.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useFamilyApps } from '../../../helpers/family-apps.js'
import { GOOD_PASSWORD, logIn, signUpAndLogIn, uniqueEmail } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

const FAR_FUTURE = '2999-01-01T00:00:00.000Z'

describe.each(databasesUnderTest())('deleting an account erases the person from every table of both services on $name', (database) => {
  const smtp = useSmtpServer()
  const family = useFamilyApps(database, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  it('leaves no row naming the person, by id or address, but the one account.deleted record', async () => {
    const { hub, tasks, hubHandle, tasksHandle } = family
    const person = await signUpAndLogIn(hub, uniqueEmail('erase'))
    const bystander = await signUpAndLogIn(hub, uniqueEmail('stay'))

    // Something of the person in every table either service fills in today.
    expect((await hub.inject({ method: 'PUT', url: '/api/privacy/settings', headers: person.headers, payload: { cookies: { analytics: true } } })).statusCode).toBe(200)
    expect((await hub.inject({ method: 'POST', url: '/api/privacy/consent', headers: person.headers, payload: { purpose: 'analytics', granted: true } })).statusCode).toBe(200)
    const others = await hub.inject({ method: 'DELETE', url: '/api/account/sessions', headers: person.headers })
    expect(others.statusCode, others.body).toBe(204)
    await createGrantsRepository(hubHandle.db).upsert({ userId: person.userId, applicationId: 'tasks', roles: ['member'], permissions: ['read'], grantedBy: 'test' })
    expect((await hub.inject({ method: 'POST', url: '/api/auth/password-reset', headers: await anonymousHeaders(hub), payload: { email: person.email } })).statusCode).toBe(204)
    // Mail and an event still waiting at the moment of deletion, held back from the senders.
    await createMailQueue(hubHandle.db).enqueue({ to: person.email, userId: person.userId, subject: 'held', text: 'held', html: 'held' }, new Date())
    await hubHandle.db.updateTable('mailQueue').set({ nextAttemptAt: FAR_FUTURE }).where('userId', '=', person.userId).execute()
    await vi.waitFor(async () => expect(await tasksHandle.db.selectFrom('receivedSecurityEvents').selectAll().execute()).toHaveLength(1))
    await hubHandle.db
      .insertInto('securityEventOutbox')
      .values({ id: 'held-event', applicationId: 'tasks', eventType: 'held', userId: person.userId, createdAt: new Date().toISOString(), attempts: 0, nextAttemptAt: FAR_FUTURE, lastError: null })
      .execute()
    for (const [userId, title] of [[person.userId, 'Mine'], [bystander.userId, 'Theirs']] as const) {
      expect((await tasks.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': userId, host: 'localhost' }, payload: { title } })).statusCode).toBe(201)
    }
    const current = await logIn(hub, person.email)
    expect(await rowsMentioning(hubHandle, [person.userId]).then((rows) => new Set(rows.map(({ table }) => table)))).toEqual(
      new Set(['users', 'sessions', 'privacy_settings', 'consents', 'access_grants', 'audit_events', 'mail_queue', 'mail_tokens', 'security_event_outbox', 'known_devices'])
    )

    const deleted = await hub.inject({ method: 'DELETE', url: '/api/account', headers: current.headers, payload: { password: GOOD_PASSWORD } })
    expect(deleted.statusCode).toBe(204)

    // The confirmation goes out, and the task manager takes the account-purged event.
    await vi.waitFor(() => expect(smtp.server.received.map((mail) => [mail.to && [mail.to].flat()[0]?.text, mail.subject])).toContainEqual([person.email, 'Your Hearth account was deleted']), { timeout: 10_000 })
    await vi.waitFor(async () => expect(await hubHandle.db.selectFrom('securityEventOutbox').selectAll().execute()).toEqual([]), { timeout: 10_000 })
    await vi.waitFor(async () => expect(await hubHandle.db.selectFrom('mailQueue').select('id').execute()).toEqual([]), { timeout: 10_000 })

    const needles = [person.userId, person.email]
    expect(await rowsMentioning(hubHandle, needles)).toEqual([
      { table: 'audit_events', row: expect.objectContaining({ userId: person.userId, type: 'account.deleted', detail: '{}', ip: null, userAgent: null }) }
    ])
    expect(await rowsMentioning(tasksHandle, needles)).toEqual([])
    // The bystander keeps everything.
    expect(await rowsMentioning(tasksHandle, [bystander.userId]).then((rows) => rows.map(({ table }) => table).sort())).toEqual(['access_grants', 'tasks'])
    expect((await hub.inject({ url: '/api/account/sessions', headers: bystander.headers })).statusCode).toBe(200)
  })
})
