import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, RootOperationNode } from 'kysely'
import { describe, expect, it } from 'vitest'
import { buildHubApp } from '../../../../src/hub/app.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { TEST_HUB_CONFIG, signUpAndLogIn, testClock } from '../../../helpers/hub-app.js'

/**
 * Tables whose queries are not the session check's: the issued token's audit event is the route's
 * own write, and the mail and security-event senders and the audit pruning run beside the request
 * (a sign-up's verification mail is sent and deleted from the queue on the sender's next round).
 * Names reach plugins in snake case.
 */
const NOT_THE_CHECKS = new Set(['audit_events', 'mail_queue', 'security_event_outbox'])

/** Every table a query names, wherever in its tree. */
function tablesOf(node: unknown, found: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return found
  const { kind, table } = node as { kind?: string; table?: { identifier?: { name?: string } } }
  if (kind === 'TableNode' && table?.identifier?.name !== undefined) found.push(table.identifier.name)
  for (const value of Object.values(node)) tablesOf(value, found)
  return found
}
const isNotTheChecks = (node: RootOperationNode) => tablesOf(node).some((table) => NOT_THE_CHECKS.has(table))

/**
 * Counts the queries the app runs while `counting` is on, but for the audit trail's. Counted as
 * their results come back, since a prepared query is compiled (and shown to plugins) only once.
 */
function queryCounter() {
  const counter = { counting: false, queries: [] as string[] }
  const kinds = new WeakMap<QueryId, string>()
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (!isNotTheChecks(node)) kinds.set(queryId, node.kind)
      return node
    },
    transformResult: async ({ result, queryId }: PluginTransformResultArgs) => {
      const kind = kinds.get(queryId)
      if (counter.counting && kind !== undefined) counter.queries.push(kind)
      return result
    }
  }
  return { counter, plugin }
}

describe.each(databasesUnderTest())('session check cost on $name', (database) => {
  // Measured through SSO token issuing, which adds its own four reads: the account (and its privacy
  // document), its plan, its groups' plans (docs/billing.md, "The household plan") and its groups'
  // names (the `groups` claim); the session check is the rest.
  it('is one read by primary key, none for a forged cookie, none while the row is cached', async () => {
    const handle = await database.open()
    const clock = testClock()
    const { counter, plugin } = queryCounter()
    const app = await buildHubApp({
      config: TEST_HUB_CONFIG,
      dataDir: handle.dataDir,
      db: handle.db.withPlugin(plugin),
      logger: createLogger('silent'),
      now: clock.now
    })
    const user = await signUpAndLogIn(app)
    const generate = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/api/auth/generate-token', headers, payload: { audience: 'tasks' } })

    clock.advance(5_000)
    counter.counting = true
    expect((await generate(user.headers)).statusCode).toBe(200)
    expect(counter.queries).toEqual(Array(5).fill('SelectQueryNode'))

    counter.queries = []
    expect((await generate(user.headers)).statusCode).toBe(200)
    expect(counter.queries).toEqual(Array(4).fill('SelectQueryNode'))

    counter.queries = []
    const forged = user.headers.cookie?.replace(/(service-auth-token=[^;]*)[A-Za-z0-9_-]{4}(;|$)/, '$1AAAA$2') ?? ''
    expect(forged).not.toBe(user.headers.cookie)
    expect((await generate({ ...user.headers, cookie: forged })).statusCode).toBe(401)
    expect(counter.queries).toEqual([])

    await app.close()
    await handle.destroy()
  })
})
