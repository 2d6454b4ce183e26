import fs from 'node:fs'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMailQueue } from '../../../../src/hub/kernel/mail/queue.js'
import { dueMailSender } from '../../../../src/hub/kernel/mail/sender.js'
import { passwordResetMail } from '../../../../src/hub/kernel/mail/templates.js'
import { OUTBOX_DIRECTORY } from '../../../../src/hub/kernel/mail/transport.js'
import type { App } from '../../../../src/shared/http/server.js'
import { capturedLog } from '../../../helpers/captured-log.js'
import { type TestDatabase, databasesUnderTest } from '../../../helpers/databases.js'
import { HUB_ORIGIN, buildTestHubApp } from '../../../helpers/hub-app.js'
import { freeLoopbackPort, smtpUrlFor, startSmtpServer } from '../../../helpers/smtp-server.js'

const INTERVAL_MS = 50
const TOKEN = 'A'.repeat(43)
const resetMail = (to: string, userId = 'user-1') => ({
  to,
  userId,
  ...passwordResetMail({ publicUrl: HUB_ORIGIN, language: 'en', email: to, token: TOKEN })
})

describe.each(databasesUnderTest())('mail delivery on $name', (database) => {
  let handle: TestDatabase
  let app: App | undefined
  beforeAll(async () => {
    handle = await database.open()
  })
  afterEach(async () => {
    await app?.close()
    app = undefined
  })
  afterAll(async () => {
    await handle.destroy()
  })

  const queued = () => handle.db.selectFrom('mailQueue').selectAll().execute()

  it('sends a queued mail over SMTP with both parts, the configured From, the To and the Subject, then forgets it', async () => {
    const smtp = await startSmtpServer()
    try {
      app = await buildTestHubApp(handle, { config: { smtpUrl: smtpUrlFor(smtp.port), mailFrom: 'Family Hub <hub@family.example>' }, mailSenderIntervalMs: INTERVAL_MS })
      await createMailQueue(handle.db).enqueue(resetMail('ada@example.com'), new Date())

      const [mail] = await smtp.waitFor(1)
      expect(mail?.from?.value).toEqual([{ name: 'Family Hub', address: 'hub@family.example' }])
      expect(mail?.to).toMatchObject({ value: [{ address: 'ada@example.com' }] })
      expect(mail?.subject).toBe('Reset your Hearth password')
      expect(mail?.text).toContain(`${HUB_ORIGIN}/reset-password#token=${TOKEN}`)
      // The address beside the token is for the reset page's password managers (docs/hub-pages.md).
      expect(mail?.html).toContain(`href="${HUB_ORIGIN}/reset-password#token=${TOKEN}&amp;email=ada%40example.com"`)
      await vi.waitFor(async () => expect(await queued()).toEqual([]))
    } finally {
      await smtp.close()
    }
  })

  it('keeps mail queued while the SMTP server is down and delivers it once the server is back', async () => {
    const port = await freeLoopbackPort()
    app = await buildTestHubApp(handle, { config: { smtpUrl: smtpUrlFor(port) }, mailSenderIntervalMs: INTERVAL_MS })
    await createMailQueue(handle.db).enqueue(resetMail('bob@example.com'), new Date())

    // Two refused attempts, each rescheduled with the reason kept.
    await vi.waitFor(async () => expect((await queued())[0]?.attempts).toBeGreaterThanOrEqual(2), { timeout: 5_000 })
    const [waiting] = await queued()
    expect(waiting).toMatchObject({ status: 'pending', recipient: 'bob@example.com', lastError: expect.stringMatching(/ECONNREFUSED/) })

    const smtp = await startSmtpServer(port)
    try {
      const [mail] = await smtp.waitFor(1)
      expect(mail?.to).toMatchObject({ value: [{ address: 'bob@example.com' }] })
      await vi.waitFor(async () => expect(await queued()).toEqual([]))
    } finally {
      await smtp.close()
    }
  })

  it('gives a mail up after its last attempt, keeps it marked failed and logs that once', async () => {
    const log = capturedLog('info')
    const queue = createMailQueue(handle.db)
    const id = await queue.enqueue(resetMail('cy@example.com'), new Date())
    const refusing = { deliver: () => Promise.reject(new Error('550 mailbox unavailable')), close: () => undefined }
    let clock = Date.now()
    const sendDue = dueMailSender({ queue, transport: refusing, logger: log.logger, now: () => new Date(clock), intervalMs: 1_000, maxAttempts: 3 })

    for (let round = 0; round < 5; round++) {
      await sendDue()
      clock += 60_000
    }

    const row = await handle.db.selectFrom('mailQueue').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: '550 mailbox unavailable' })
    const aboutIt = log.lines.filter((line) => line.mailId === id)
    expect(aboutIt.map((line) => line.msg)).toEqual(['mail not sent; will retry', 'mail not sent; will retry', 'mail given up after its last attempt; kept in the queue as failed'])
    expect(aboutIt.map((line) => line.retryInMs)).toEqual([1_000, 2_000, undefined])
    expect(log.text).not.toContain('cy@example.com')
    await handle.db.deleteFrom('mailQueue').execute()
  })

  it('writes each mail, without HUB_SMTP_URL, as an owner-only .eml file in DATA_DIR/outbox, and logs the file, not the token', async () => {
    const log = capturedLog('info')
    app = await buildTestHubApp(handle, { logger: log.logger, mailSenderIntervalMs: INTERVAL_MS })
    await createMailQueue(handle.db).enqueue(resetMail('dee@example.com'), new Date())

    const outbox = path.join(handle.dataDir, OUTBOX_DIRECTORY)
    // The .txt is written once the .eml is complete: a .eml alone may still be half written.
    const file = await vi.waitFor(() => {
      const name = fs.readdirSync(outbox).find((file) => file.endsWith('.txt'))
      if (!name) throw new Error('no mail yet')
      return path.join(outbox, name.replace(/\.txt$/, '.eml'))
    }, { timeout: 5_000 })
    expect(file).toMatch(/\.eml$/)
    expect(fs.statSync(outbox).mode & 0o777).toBe(0o700)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const mail = await simpleParser(fs.readFileSync(file))
    expect(mail.to).toMatchObject({ value: [{ address: 'dee@example.com' }] })
    expect(mail.from?.value).toEqual([{ name: 'Hearth', address: 'no-reply@localhost' }])
    expect(mail.subject).toBe('Reset your Hearth password')
    expect(mail.text).toContain(`/reset-password#token=${TOKEN}`)
    expect(mail.html).toContain(`/reset-password#token=${TOKEN}`)

    await vi.waitFor(() => expect(log.lines.find((line) => line.msg === 'mail sent')).toMatchObject({ file }))
    expect(log.text).not.toContain(TOKEN)
    expect(await queued()).toEqual([])
    fs.rmSync(outbox, { recursive: true })
  })

  it('keeps mail queued at shutdown for the next hub to send', async () => {
    app = await buildTestHubApp(handle, { mailSenderIntervalMs: 60_000 })
    await createMailQueue(handle.db).enqueue(resetMail('eve@example.com'), new Date())
    await app.close()
    app = undefined
    expect(await queued()).toMatchObject([{ recipient: 'eve@example.com', status: 'pending', attempts: 0 }])
    await handle.db.deleteFrom('mailQueue').execute()
  })
})
