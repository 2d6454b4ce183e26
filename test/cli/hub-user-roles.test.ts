import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { LAST_ADMINISTRATOR } from '../../src/hub/kernel/accounts/roles.js'
import { useHubCli } from '../helpers/hub-cli.js'

const PASSWORD = 'correct horse battery staple'

describe('hub CLI: administrators', () => {
  const cli = useHubCli()
  const { output, io } = cli
  const rolesOf = () => cli.withDatabase((db) => db.selectFrom('users').select(['email', 'role', 'disabled']).orderBy('email').execute())
  const eventsOf = (type: string) =>
    cli.withDatabase(async (db) => (await db.selectFrom('auditEvents').innerJoin('users', 'users.id', 'auditEvents.userId').select(['users.email', 'auditEvents.detail']).where('type', '=', type).execute()).map(({ email, detail }) => ({ email, detail: JSON.parse(detail) as unknown })))

  it('creates an administrator with --admin, and promotes and demotes by address', async () => {
    expect(await runHubCli(['users:create', '--admin', '--email', 'Ada@Example.com'], io(PASSWORD))).toBe(0)
    expect(await runHubCli(['users:create', '--email', 'bob@example.com'], io(PASSWORD))).toBe(0)
    expect(output.out[0]).toMatch(/^Created administrator ada@example\.com with id [0-9a-f-]{36}\.$/)
    expect(output.out[1]).toMatch(/^Created bob@example\.com with id/)
    expect(await rolesOf()).toEqual([
      { email: 'ada@example.com', role: 'admin', disabled: 0 },
      { email: 'bob@example.com', role: 'member', disabled: 0 }
    ])

    output.out = []
    expect(await runHubCli(['users:promote', '--email', 'BOB@example.com'], io())).toBe(0)
    expect(await runHubCli(['users:promote', '--email', 'bob@example.com'], io())).toBe(0)
    expect(await runHubCli(['users:demote', '--email', 'ada@example.com'], io())).toBe(0)
    expect(output.out).toEqual(['bob@example.com is now an administrator.', 'bob@example.com is already an administrator.', 'ada@example.com is now a member.'])
    expect((await rolesOf()).map(({ role }) => role)).toEqual(['member', 'admin'])
    // Each change is on the person's activity, with no administrator named: it came from the terminal.
    expect(await eventsOf('account.promoted')).toEqual([
      { email: 'ada@example.com', detail: {} },
      { email: 'bob@example.com', detail: {} }
    ])
    expect(await eventsOf('account.demoted')).toEqual([{ email: 'ada@example.com', detail: {} }])
  })

  it('refuses to demote, disable or delete the last administrator, with exit code 1', async () => {
    expect(await runHubCli(['users:create', '--admin', '--email', 'ada@example.com'], io(PASSWORD))).toBe(0)
    expect(await runHubCli(['users:demote', '--email', 'ada@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:disable', '--email', 'ada@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:delete', '--email', 'ada@example.com'], io())).toBe(1)
    expect(output.err).toEqual([LAST_ADMINISTRATOR, LAST_ADMINISTRATOR, LAST_ADMINISTRATOR])
    expect(await rolesOf()).toEqual([{ email: 'ada@example.com', role: 'admin', disabled: 0 }])

    // With a second, enabled administrator, the first may go.
    expect(await runHubCli(['users:create', '--admin', '--email', 'bob@example.com'], io(PASSWORD))).toBe(0)
    expect(await runHubCli(['users:disable', '--email', 'bob@example.com'], io())).toBe(0)
    // A disabled administrator does not count.
    expect(await runHubCli(['users:demote', '--email', 'ada@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:enable', '--email', 'bob@example.com'], io())).toBe(0)
    expect(await runHubCli(['users:delete', '--email', 'ada@example.com'], io())).toBe(0)
    expect(await rolesOf()).toEqual([{ email: 'bob@example.com', role: 'admin', disabled: 0 }])
    expect(await runHubCli(['users:demote', '--email', 'bob@example.com'], io())).toBe(1)
  })

  it('leaves members alone: disabling and deleting them needs no administrator', async () => {
    expect(await runHubCli(['users:create', '--email', 'carol@example.com'], io(PASSWORD))).toBe(0)
    expect(await runHubCli(['users:disable', '--email', 'carol@example.com'], io())).toBe(0)
    expect(await runHubCli(['users:delete', '--email', 'carol@example.com'], io())).toBe(0)
    expect(output.err).toEqual([])
  })

  it('names what is missing or unknown', async () => {
    expect(await runHubCli(['users:promote'], io())).toBe(2)
    expect(await runHubCli(['users:promote', '--email', 'nobody@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:demote', '--email', 'nobody@example.com'], io())).toBe(1)
    expect(output.err).toEqual(['users:promote needs --email', 'No account has this email', 'No account has this email'])
    const oidc = { HUB_IDP: 'oidc', HUB_IDP_JWKS_URL: 'https://idp.example/jwks', HUB_IDP_ISSUER: 'https://idp.example', HUB_IDP_AUDIENCE: 'hearth' }
    expect(await runHubCli(['users:promote', '--email', 'ada@example.com'], io('', oidc))).toBe(1)
  })
})
