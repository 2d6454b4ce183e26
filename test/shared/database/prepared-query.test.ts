import { describe, expect, it } from 'vitest'
import { type Param, prepareQuery } from '../../../src/shared/database/prepared-query.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

const user = (id: string, email: string, disabled = 0) => ({
  id,
  email,
  passwordHash: 'x',
  disabled,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z'
})

describe.each(databasesUnderTest())('prepared queries on $name', (database) => {
  const handle = useDatabase(database)

  it("answers each run with that run's values, fixed values kept, rows in camel case", async () => {
    const { db } = handle.current
    await db.insertInto('users').values([user('u-1', 'one@example.com'), user('u-2', 'two@example.com'), user('u-3', 'three@example.com', 1)]).execute()
    const enabledById = prepareQuery(db, (param: Param<{ id: string }>) =>
      db.selectFrom('users').select(['email', 'passwordHash']).where('id', '=', param('id')).where('disabled', '=', 0)
    )
    expect(await enabledById.first({ id: 'u-1' })).toEqual({ email: 'one@example.com', passwordHash: 'x' })
    expect(await enabledById.first({ id: 'u-2' })).toEqual({ email: 'two@example.com', passwordHash: 'x' })
    // The fixed `disabled = 0` stays in every run.
    expect(await enabledById.first({ id: 'u-3' })).toBeUndefined()
    expect(await enabledById.all({ id: "u-1' or '1'='1" })).toEqual([])
  })

  it('binds the same name wherever it appears, and several names each in its place', async () => {
    const { db } = handle.current
    await db.insertInto('users').values([user('v-1', 'v1@example.com'), user('v-2', 'v2@example.com')]).execute()
    const either = prepareQuery(db, (param: Param<{ first: string; second: string }>) =>
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', param('first')), eb('email', '=', param('second')), eb('id', '=', param('second'))]))
        .orderBy('id')
    )
    expect(await either.all({ first: 'v-1', second: 'v2@example.com' })).toEqual([{ id: 'v-1' }, { id: 'v-2' }])
    expect(await either.all({ first: 'nobody', second: 'v-2' })).toEqual([{ id: 'v-2' }])
  })

  it('refuses, on its first run, a placeholder that did not become a parameter', async () => {
    const { db } = handle.current
    const unbound = prepareQuery(db, (param: Param<{ id: string }>) => {
      param('id')
      return db.selectFrom('users').select('id')
    })
    await expect(unbound.all({ id: 'u-1' })).rejects.toThrow('"id" did not become a parameter')
  })
})
