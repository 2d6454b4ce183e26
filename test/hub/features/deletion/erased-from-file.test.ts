import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import type { TestDatabase } from '../../../helpers/databases.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { useSmtpServer } from '../../../helpers/account-mail.js'
import { useFamilyApps } from '../../../helpers/family-apps.js'
import { GOOD_PASSWORD, signUpAndLogIn, uniqueEmail, useHubApp } from '../../../helpers/hub-app.js'
import { smtpUrlFor } from '../../../helpers/smtp-server.js'

/** Enough of them, with long enough titles, that erasing them frees whole pages, not only cells. */
const TASKS_OF_THE_PERSON = 150

/** Which of `needles` the SQLite database file of `handle`, or its write-ahead log, holds anywhere in its bytes. */
function needlesInFiles(handle: TestDatabase, needles: string[]): string[] {
  const database = path.join(handle.dataDir, 'hearth.db')
  const bytes = Buffer.concat([database, `${database}-wal`].map((file) => (fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0))))
  return needles.filter((needle) => bytes.includes(Buffer.from(needle, 'utf8')))
}

/**
 * The rows an erasure deletes must not stay in the SQLite file's free space or its log, where
 * any copy or backup of the file would keep them (docs/privacy.md, "Erased data on disk").
 * SQLite only: PostgreSQL's files are the server's, and VACUUM's.
 */
describe('deleting an account leaves nothing of it in the bytes of the SQLite files', () => {
  const sqlite = databasesUnderTest().find(({ name }) => name === 'sqlite')!
  const smtp = useSmtpServer()
  const family = useFamilyApps(sqlite, () => ({ config: { smtpUrl: smtpUrlFor(smtp.server.port) }, mailSenderIntervalMs: 50 }))

  it("holds none of the address, the display name or the task titles in either service's file and log, nor the user id in the task manager's", async () => {
    const { hub, tasks, hubHandle, tasksHandle } = family
    const unique = randomBytes(6).toString('hex')
    const person = await signUpAndLogIn(hub, uniqueEmail(`erased-${unique}`))
    const bystander = await signUpAndLogIn(hub, uniqueEmail('kept'))
    const displayName = `Ada Erasable ${unique}`
    const named = await hub.inject({ method: 'PATCH', url: '/api/account', headers: person.headers, payload: { displayName } })
    expect(named.statusCode, named.body).toBe(200)
    // The person's tasks and the bystander's side by side, so erasing empties some pages and part of others.
    const titles = Array.from({ length: TASKS_OF_THE_PERSON }, (_, index) => `Secret plan ${unique} number ${index} ${'of a long and detailed kind '.repeat(4)}`)
    for (const [index, title] of titles.entries()) {
      for (const [userId, taskTitle] of [[person.userId, title], [bystander.userId, `Kept plan ${index}`]] as const) {
        const created = await tasks.inject({ method: 'POST', url: '/tasks', headers: { 'x-user-id': userId, host: 'localhost' }, payload: { title: taskTitle } })
        expect(created.statusCode, created.body).toBe(201)
      }
    }
    // As SQLite's own checkpoints would have by now: the rows are in the database files, not only in the logs.
    for (const handle of [hubHandle, tasksHandle]) await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(handle.db)
    const everything = [person.email, displayName, ...titles]
    expect(needlesInFiles(hubHandle, [person.email, displayName])).toEqual([person.email, displayName])
    expect(needlesInFiles(tasksHandle, [person.userId, ...titles])).toHaveLength(1 + TASKS_OF_THE_PERSON)

    const deleted = await hub.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: { password: GOOD_PASSWORD } })
    expect(deleted.statusCode, deleted.body).toBe(204)

    // Once the confirmation is sent and the task manager has taken the account-purged event. The
    // hub keeps the user id, in its one account.deleted record (docs/account.md, "Deletion").
    await vi.waitFor(() => expect(smtp.server.received.map((mail) => mail.subject)).toContain('Your Hearth account was deleted'), { timeout: 10_000 })
    await vi.waitFor(
      () => {
        expect(needlesInFiles(hubHandle, everything)).toEqual([])
        expect(needlesInFiles(tasksHandle, [person.userId, ...everything])).toEqual([])
      },
      { timeout: 10_000, interval: 100 }
    )
    // The bystander's tasks are still there, in the same bytes.
    expect(needlesInFiles(tasksHandle, [bystander.userId, `Kept plan ${TASKS_OF_THE_PERSON - 1}`])).toHaveLength(2)
  })

  describe('before the confirmation is sent', () => {
    // The sender's first round runs as the hub starts; the next one is long after the test.
    const hub = useHubApp(sqlite, { mailSenderIntervalMs: 3_600_000 })

    it('the erasure itself has flushed the display name out of the file and the log; the address waits in the confirmation', async () => {
      const unique = randomBytes(6).toString('hex')
      const person = await signUpAndLogIn(hub.app, uniqueEmail(`unsent-${unique}`))
      const displayName = `Ada Unsent ${unique}`
      expect((await hub.app.inject({ method: 'PATCH', url: '/api/account', headers: person.headers, payload: { displayName } })).statusCode).toBe(200)
      await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(hub.handle.db)
      expect(needlesInFiles(hub.handle, [displayName])).toEqual([displayName])

      const deleted = await hub.app.inject({ method: 'DELETE', url: '/api/account', headers: person.headers, payload: { password: GOOD_PASSWORD } })
      expect(deleted.statusCode, deleted.body).toBe(204)
      expect(needlesInFiles(hub.handle, [displayName, person.email])).toEqual([person.email])
      expect(await hub.handle.db.selectFrom('mailQueue').select('subject').where('recipient', '=', person.email).execute()).toContainEqual({ subject: 'Your Hearth account was deleted' })
    })
  })
})
