import { describe, expect, it } from 'vitest'
import { SsoTokenError } from '../../src/shared/sso/token-verifier.js'
import { buildTasksApp } from '../../src/tasks/app.js'
import { capturedLog } from '../helpers/captured-log.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'
import { TEST_TASKS_CONFIG, failingGrants } from '../helpers/tasks-app.js'

const TOKEN = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ0b2tlbi11c2VyLTcxYTQifQ.c2lnbmF0dXJlLWJ5dGVzLTQ0Yjk'
const TOKEN_USER = 'token-user-71a4c0de'
const HEADER_USER = 'header-user-93be52f1'
const COOKIE = 'hearth_session=session-secret-0c8e4d7a'

/** A verifier that knows one token, so the test needs no hub. */
const verifySsoToken = async (token: string) => {
  if (token !== TOKEN) throw new SsoTokenError('invalid')
  return { userId: TOKEN_USER, email: undefined, issuedAt: 0 }
}
describe.each(databasesUnderTest())('log redaction on $name', (database) => {
  const handle = useDatabase(database)

  it('never writes an authorization, cookie or x-user-id value in full, even at LOG_LEVEL=trace', async () => {
    const log = capturedLog('trace')
    const config = { ...TEST_TASKS_CONFIG, auth: 'either' as const }
    const apps = [
      await buildTasksApp({ config, db: handle.current.db, logger: log.logger, verifySsoToken }),
      // The one path that logs which user: the access check's failure line.
      await buildTasksApp({ config, db: handle.current.db, logger: log.logger, verifySsoToken, accessResolver: failingGrants })
    ]
    const requests = [
      { authorization: `Bearer ${TOKEN}`, cookie: COOKIE },
      { authorization: `Bearer ${TOKEN}`, 'x-user-id': TOKEN_USER },
      { authorization: `Bearer ${TOKEN}x`, cookie: COOKIE },
      { authorization: `Bearer ${TOKEN}`, 'x-user-id': HEADER_USER },
      { 'x-user-id': HEADER_USER, cookie: COOKIE }
    ]
    for (const app of apps) {
      for (const headers of requests) {
        await app.inject({ method: 'POST', url: '/tasks', headers, payload: { title: 'logged?' } })
        await app.inject({ url: '/tasks/not-a-task?limit=oops', headers })
      }
      await app.close()
    }

    expect(log.lines.filter((line) => line.msg === 'request completed').length).toBeGreaterThanOrEqual(20)
    expect(log.lines.some((line) => line.msg === 'access check failed')).toBe(true)
    for (const secret of [TOKEN, TOKEN.split('.')[2]!, TOKEN_USER, HEADER_USER, COOKIE, 'session-secret-0c8e4d7a']) {
      expect(log.text).not.toContain(secret)
    }
  })
})
