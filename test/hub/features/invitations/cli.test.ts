import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../../../src/cli/hub-commands.js'
import { openDatabase } from '../../../../src/shared/database/connect.js'
import { migrateToLatest } from '../../../../src/shared/database/migrate.js'
import { GOOD_PASSWORD, buildTestHubApp, logIn } from '../../../helpers/hub-app.js'
import { useHubCli } from '../../../helpers/hub-cli.js'

describe('hub CLI: invitations:add', () => {
  const cli = useHubCli({ HUB_SIGNUP: 'invite' })
  const run = (...args: string[]) => runHubCli(args, cli.io())

  /** A hub on the CLI's database (its DATA_DIR's SQLite), as the running hub would be. */
  const withHub = async (work: (app: Awaited<ReturnType<typeof buildTestHubApp>>) => Promise<void>) => {
    const { db } = openDatabase({ databaseUrl: undefined, dataDir: cli.dataDir })
    await migrateToLatest(db)
    // The hub makes the groups (the CLI has no groups command yet; issue 30 adds groups:add).
    const at = new Date().toISOString()
    await db.insertInto('groups').values({ id: 'g1', name: 'Family', nameKey: 'family', description: '', createdAt: at, updatedAt: at }).execute()
    const app = await buildTestHubApp({ db, dialect: 'sqlite', dataDir: cli.dataDir, destroy: () => db.destroy() }, { config: { signup: 'invite' } })
    try {
      await work(app)
    } finally {
      await app.close()
      await db.destroy()
    }
  }

  it('invites the address into the groups named, queues the mail and prints the link, which makes the account', async () => {
    await withHub(async (app) => {
      expect(await run('invitations:add', '--email', 'Ada@Example.com', '--groups', 'family, ')).toBe(0)
      const [printed] = cli.output.out
      expect(printed).toMatch(/^Invited ada@example\.com until \S+; they join Family\. The mail is queued; the link:\nhttp:\/\/localhost:3001\/invite#token=[A-Za-z0-9_-]{43}&email=ada%40example\.com$/)
      const token = /#token=([A-Za-z0-9_-]+)/.exec(printed ?? '')?.[1]
      const made = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'ada@example.com', password: GOOD_PASSWORD, invitation: token } })
      expect(made.statusCode, made.body).toBe(200)
      await logIn(app, 'ada@example.com')
    })
  })

  it('refuses what the console refuses, naming why', async () => {
    expect(await run('invitations:add')).toBe(2)
    expect(cli.output.err).toEqual(['invitations:add needs --email'])
    expect(await run('invitations:add', '--email', 'bob@example.com', '--groups', 'nobody')).toBe(1)
    expect(cli.output.err.at(-1)).toBe('No group is named nobody')
    expect(await run('invitations:add', '--email', 'bob@example.com', '--language', 'fr')).toBe(2)
    expect(cli.output.err.at(-1)).toBe('--language must be one of en, es')
    expect(await runHubCli(['invitations:add', '--email', 'bob@example.com'], cli.io('', { HUB_SIGNUP: 'closed' }))).toBe(1)
    expect(cli.output.err.at(-1)).toBe('HUB_SIGNUP is closed: nobody signs up, invited or not. Set HUB_SIGNUP=invite to invite people')
  })

  it('has its own help', async () => {
    expect(await run('invitations:add', '--help')).toBe(0)
    expect(cli.output.out[0]).toMatch(/^Usage: npm run hub -- invitations:add --email EMAIL/)
  })
})
