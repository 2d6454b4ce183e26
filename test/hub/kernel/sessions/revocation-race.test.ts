import type { KyselyPlugin, QueryResult, UnknownRow } from 'kysely'
import { describe, expect, it } from 'vitest'
import { buildHubApp } from '../../../../src/hub/app.js'
import { createLogger } from '../../../../src/shared/logging.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { TEST_HUB_CONFIG, signUpAndLogIn } from '../../../helpers/hub-app.js'

/** Holds back the result of the next session-row read once armed, until released: a slow read. */
function slowSessionRead() {
  let armed = false
  let caught: () => void = () => {}
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (caught = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    async transformResult({ result }): Promise<QueryResult<UnknownRow>> {
      const row = result.rows[0]
      if (armed && row && 'userAgent' in row) {
        armed = false
        caught()
        await released
      }
      return result
    }
  }
  return { plugin, arm: () => (armed = true), held, release }
}

describe.each(databasesUnderTest())('sign-out racing a session check on $name', (database) => {
  // Kysely runs a plugin's transformResult while holding the connection, and SQLite has one:
  // the held read would block the sign-out's own queries, so the race can be staged only where
  // reads and writes run on separate connections.
  it.skipIf(database.name === 'sqlite')('refuses the revoked cookie at once, even when a read begun before the sign-out ends after it', async () => {
    const handle = await database.open()
    const slow = slowSessionRead()
    const app = await buildHubApp({ config: TEST_HUB_CONFIG, dataDir: handle.dataDir, db: handle.db.withPlugin(slow.plugin), logger: createLogger('silent') })
    const user = await signUpAndLogIn(app)
    const settings = () => app.inject({ url: '/api/privacy/settings', headers: { cookie: user.headers.cookie ?? '' } })

    slow.arm()
    const inFlight = settings()
    // The in-flight check has read the live row and is held before it can cache it.
    await slow.held
    const signOut = await app.inject({ method: 'DELETE', url: '/api/auth/refresh', headers: user.headers })
    expect(signOut.statusCode).toBe(204)
    slow.release()
    await inFlight

    const after = await settings()
    expect(after.statusCode).toBe(401)
    await app.close()
    await handle.destroy()
  })
})
