import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { SECURITY_EVENT_TYPES } from '../../src/shared/security-events/security-event-token.js'
import { useHubCli } from '../helpers/hub-cli.js'

const PASSWORD = 'correct horse battery staple'

describe('hub CLI: users:delete and events:pending', () => {
  const { output, io, withDatabase } = useHubCli({ HUB_APPS: 'tasks=http://localhost:3000;events=http://localhost:3000/events/hearth,notes=http://localhost:4000' })

  it('erases an account as its owner would: the record, the confirmation and an account-purged event for each application taking events', async () => {
    expect(await runHubCli(['users:create', '--email', 'ada@example.com'], io(PASSWORD))).toBe(0)
    const userId = /with id ([0-9a-f-]{36})/.exec(output.out[0] ?? '')?.[1] ?? ''
    expect(await runHubCli(['users:delete', '--email', 'Ada@Example.com'], io())).toBe(0)
    expect(output.out[1]).toBe(`Deleted ada@example.com (id ${userId}); a confirmation is queued for the address.`)

    await withDatabase(async (db) => {
      expect(await db.selectFrom('users').select('id').execute()).toEqual([])
      expect(await db.selectFrom('auditEvents').select(['userId', 'type', 'ip']).execute()).toEqual([{ userId, type: 'account.deleted', ip: null }])
      expect(await db.selectFrom('mailQueue').select(['userId', 'recipient', 'subject']).execute()).toEqual([
        { userId: null, recipient: 'ada@example.com', subject: 'Your Hearth account was deleted' }
      ])
      expect(await db.selectFrom('securityEventOutbox').select(['applicationId', 'eventType', 'userId']).execute()).toEqual([
        { applicationId: 'tasks', eventType: SECURITY_EVENT_TYPES.accountPurged, userId }
      ])
    })

    expect(await runHubCli(['users:delete', '--email', 'ada@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:delete'], io())).toBe(2)
    expect(output.err).toEqual(['No account has this email', 'users:delete needs --email'])
  })

  it('records sessions-revoked when disabling, and lists undelivered events with events:pending', async () => {
    expect(await runHubCli(['events:pending'], io())).toBe(0)
    expect(output.out).toEqual(['No security event is waiting for delivery.'])
    expect(await runHubCli(['users:create', '--email', 'bob@example.com'], io(PASSWORD))).toBe(0)
    expect(await runHubCli(['users:disable', '--email', 'bob@example.com'], io())).toBe(0)
    expect(await runHubCli(['users:enable', '--email', 'bob@example.com'], io())).toBe(0)
    const userId = /with id ([0-9a-f-]{36})/.exec(output.out[1] ?? '')?.[1] ?? ''

    output.out = []
    expect(await runHubCli(['events:pending'], io())).toBe(0)
    expect(output.out).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f-]{36}  tasks  sessions-revoked  user ${userId}  at \\S+  attempts 0  next \\S+  last error: none$`))])
  })
})
