import { describe, expect, it } from 'vitest'
import { CLAIM_MS, createMailQueue } from '../../../../src/hub/kernel/mail/queue.js'
import { databasesUnderTest, useDatabase } from '../../../helpers/databases.js'

const T0 = new Date('2030-01-01T00:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const mailTo = (to: string) => ({ to, userId: null, subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' })

describe.each(databasesUnderTest())('mail queue on $name', (database) => {
  const handle = useDatabase(database)

  it('lets senders claiming at once take each due mail once, counting the attempt', async () => {
    const queue = createMailQueue(handle.current.db)
    for (let n = 0; n < 30; n++) await queue.enqueue(mailTo(`claim-${n}@example.com`), T0)
    // Two senders, as two hubs on one database would run them.
    const claims = await Promise.all([createMailQueue(handle.current.db).claimDue(later(1), 20), createMailQueue(handle.current.db).claimDue(later(1), 20)])
    const ids = claims.flat().map((mail) => mail.id)
    expect(ids).toHaveLength(30)
    expect(new Set(ids).size).toBe(30)
    expect(claims.flat().every((mail) => mail.attempts === 1)).toBe(true)

    // Claimed mail is not due again until the claim runs out (a sender that crashed mid-way).
    expect(await queue.claimDue(later(CLAIM_MS), 50)).toEqual([])
    expect(await queue.claimDue(later(CLAIM_MS + 1), 50)).toHaveLength(30)
    await handle.current.db.deleteFrom('mailQueue').execute()
  })

  it("queues a mail inside the caller's transaction, gone if it rolls back", async () => {
    const queue = createMailQueue(handle.current.db)
    await expect(
      handle.current.db.transaction().execute(async (trx) => {
        await queue.enqueue(mailTo('rollback@example.com'), T0, trx)
        throw new Error('the rest of the work failed')
      })
    ).rejects.toThrow('the rest of the work failed')
    expect(await queue.claimDue(later(1), 10)).toEqual([])
  })
})
