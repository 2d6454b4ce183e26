import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { useHubCli } from '../helpers/hub-cli.js'

describe('hub CLI: groups, and applications limited to them', () => {
  const { output, io, withDatabase } = useHubCli({ HUB_PUBLIC_URL: 'https://hub.example' })
  const createUser = (email: string) => runHubCli(['users:create', '--email', email], io('a long enough password 42'))
  const groupNamesOf = (email: string) =>
    withDatabase((db) =>
      db.selectFrom('groupMembers').innerJoin('groups', 'groups.id', 'groupMembers.groupId').innerJoin('users', 'users.id', 'groupMembers.userId').select('groups.name').where('users.email', '=', email).orderBy('groups.nameKey').execute()
    ).then((rows) => rows.map((row) => row.name))

  it('makes groups, lists them, and puts accounts in and out of them, each member’s trail saying so', async () => {
    expect(await runHubCli(['groups:list'], io())).toBe(0)
    expect(output.out).toEqual(['No group yet.'])
    expect(await runHubCli(['groups:add', '--name', 'Family', '--description', 'Everyone at home'], io())).toBe(0)
    expect(output.out.at(-1)).toMatch(/^Made the group Family \([0-9a-f-]{36}\)\.$/)
    expect(await runHubCli(['groups:add', '--name', 'admins'], io())).toBe(0)
    expect(await createUser('ada@example.com')).toBe(0)

    output.out = []
    expect(await runHubCli(['groups:members:add', '--group', 'family', '--email', 'Ada@Example.com'], io())).toBe(0)
    expect(output.out).toEqual(['ada@example.com is in Family.'])
    expect(await groupNamesOf('ada@example.com')).toEqual(['Family'])
    output.out = []
    expect(await runHubCli(['groups:list'], io())).toBe(0)
    expect(output.out).toEqual(['admins  0 members', 'Family  1 member  "Everyone at home"'])

    expect(await runHubCli(['groups:members:remove', '--group', 'Family', '--email', 'ada@example.com'], io())).toBe(0)
    expect(output.out.at(-1)).toBe('ada@example.com is not in Family.')
    expect(await groupNamesOf('ada@example.com')).toEqual([])

    const trail = await withDatabase((db) => db.selectFrom('auditEvents').innerJoin('users', 'users.id', 'auditEvents.userId').select(['type', 'detail']).where('users.email', '=', 'ada@example.com').where('type', 'like', 'group.%').orderBy('auditEvents.createdAt').execute())
    expect(trail.map((event) => event.type)).toEqual(['group.joined', 'group.left'])
    expect(JSON.parse(trail[0]?.detail ?? '{}')).toEqual({ groupId: expect.any(String), group: 'Family' })
  })

  it('refuses with the rules’ messages', async () => {
    expect(await runHubCli(['groups:add', '--name', 'Family'], io())).toBe(0)
    const cases: [string[], number, string][] = [
      [['groups:add'], 2, 'groups:add needs --name'],
      [['groups:add', '--name', 'family'], 1, 'A group with this name already exists'],
      [['groups:add', '--name', 'bad!'], 1, 'Group name may hold letters, digits, single spaces, dots, hyphens and underscores, and must begin and end with a letter or digit'],
      [['groups:members:add', '--group', 'Family'], 2, 'groups:members:add needs --group and --email'],
      [['groups:members:add', '--group', 'Nobody', '--email', 'ada@example.com'], 1, 'No group is named "Nobody"'],
      [['groups:members:add', '--group', 'Family', '--email', 'nobody@example.com'], 1, 'No account has this email'],
      [['groups:members:remove', '--group', 'Family', '--email', 'nobody@example.com'], 1, 'No account has this email']
    ]
    for (const [args, code, message] of cases) {
      output.err = []
      expect(await runHubCli(args, io()), args.join(' ')).toBe(code)
      expect(output.err, args.join(' ')).toEqual([message])
    }
  })

  it('limits an application to groups with clients:add --groups and clients:update --groups, by name', async () => {
    await runHubCli(['groups:add', '--name', 'Family'], io())
    await runHubCli(['groups:add', '--name', 'admins'], io())
    output.out = []
    expect(await runHubCli(['clients:add', '--id', 'grafana', '--redirect-uri', 'https://grafana.example/cb', '--groups', 'family, admins'], io())).toBe(0)
    expect(output.out[0]).toBe('Registered grafana (confidential, for family, admins only).')
    const storedGroups = () => withDatabase((db) => db.selectFrom('oidcClients').select('allowedGroups').where('id', '=', 'grafana').executeTakeFirstOrThrow()).then((row) => JSON.parse(row.allowedGroups) as string[])
    expect(await storedGroups()).toHaveLength(2)

    output.out = []
    expect(await runHubCli(['clients:list'], io())).toBe(0)
    expect(output.out[0]).toMatch(/ {2}for groups admins,Family$/)

    output.out = []
    expect(await runHubCli(['clients:update', '--id', 'grafana', '--groups', 'admins'], io())).toBe(0)
    expect(output.out).toEqual(['Updated grafana: --groups.'])
    expect(await storedGroups()).toHaveLength(1)
    expect(await runHubCli(['clients:update', '--id', 'grafana', '--groups', ''], io())).toBe(0)
    expect(await storedGroups()).toEqual([])

    output.err = []
    expect(await runHubCli(['clients:update', '--id', 'grafana', '--groups', 'admins,kids'], io())).toBe(1)
    expect(output.err).toEqual(['No group is named "kids": make it first (groups:add or the console\'s Groups)'])
    expect(await runHubCli(['clients:add', '--id', 'immich', '--redirect-uri', 'https://photos.example/cb', '--groups', 'kids'], io())).toBe(1)
    expect(await withDatabase((db) => db.selectFrom('oidcClients').select('id').where('id', '=', 'immich').execute())).toEqual([])
  })
})
