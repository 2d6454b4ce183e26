import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { createMailQueue } from '../../src/hub/kernel/mail/queue.js'
import { useHubCli } from '../helpers/hub-cli.js'

/** `mail:queue` lists what the console's queues page lists, through the same function (docs/administration.md, "Queues"). */
describe('hub CLI: mail:queue', () => {
  const { output, io, withDatabase } = useHubCli()

  it('says when nothing waits, lists waiting and given-up mail oldest first without bodies, and refuses a bad --limit', async () => {
    expect(await runHubCli(['mail:queue'], io())).toBe(0)
    expect(output.out).toEqual(['No mail is waiting: everything queued was sent.'])
    output.out = []

    const ids = await withDatabase(async (db) => {
      const queue = createMailQueue(db)
      const first = await queue.enqueue({ to: 'ada@example.com', subject: 'Confirm your address', text: 'secret link', html: 'secret link', userId: null }, new Date('2030-01-01T00:00:00.000Z'))
      const second = await queue.enqueue({ to: 'bob@example.com', subject: 'New sign-in', text: 'x', html: 'x', userId: null }, new Date('2030-01-01T00:01:00.000Z'))
      await queue.markFailed(second, '550 no such mailbox')
      return [first, second]
    })
    expect(await runHubCli(['mail:queue'], io())).toBe(0)
    expect(output.out).toEqual([
      `${ids[0]}  to ada@example.com  "Confirm your address"  waiting  attempts 0  next 2030-01-01T00:00:00.000Z  last error: none`,
      `${ids[1]}  to bob@example.com  "New sign-in"  failed  attempts 0  next none  last error: 550 no such mailbox`
    ])
    output.out = []
    expect(await runHubCli(['mail:queue', '--limit', '1'], io())).toBe(0)
    expect(output.out).toEqual([expect.stringContaining('ada@example.com'), 'The 1 oldest of 2 are listed.'])
    expect(output.out.join('\n')).not.toContain('secret link')

    expect(await runHubCli(['mail:queue', '--limit', '0'], io())).toBe(2)
    expect(output.err).toEqual(['--limit must be an integer from 1 to 100.'])
  })
})
