import { describe, expect, it } from 'vitest'
import { sessionHandle } from '../../../../src/hub/kernel/sessions/session-handle.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { hubAppPerSuite, signUpAndLogIn } from '../../../helpers/hub-app.js'

describe.each(databasesUnderTest())('export of the account and sessions (%s)', (database) => {
  const suite = hubAppPerSuite(database)

  it('holds the account and each session, without the password hash or any session id', async () => {
    const { app, handle } = suite
    const user = await signUpAndLogIn(app)
    const response = await app.inject({ method: 'POST', url: '/api/export', headers: user.headers, payload: { format: 'json' } })
    expect(response.statusCode).toBe(200)
    const { datasets } = response.json<{ datasets: Record<string, Record<string, unknown>[]> }>()
    expect(datasets.account).toEqual([expect.objectContaining({ id: user.userId, email: user.email })])
    const sessions = await handle.db.selectFrom('sessions').select('id').where('userId', '=', user.userId).execute()
    expect(datasets.sessions?.map((session) => session.id)).toEqual(sessions.map(({ id }) => sessionHandle(id)))
    for (const secret of ['$argon2', ...sessions.map(({ id }) => id)]) expect(response.body).not.toContain(secret)
  })
})
