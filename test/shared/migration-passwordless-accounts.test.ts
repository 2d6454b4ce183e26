import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { down, up } from '../../src/shared/database/migrations/0060-passwordless-accounts.js'
import { databasesUnderTest, useDatabase } from '../helpers/databases.js'

describe.each(databasesUnderTest())('migration 0060 (passwordless accounts) on $name', (database) => {
  const handle = useDatabase(database)
  const account = (id: string, passwordHash: string | null) => ({ id, email: `${id}@example.com`, passwordHash, disabled: 0, createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-01T00:00:00.000Z', displayName: null, locale: null })

  it('keeps every password, takes an account without one, and refuses to go back while one has none', async () => {
    const { db } = handle.current
    const untyped = db as unknown as Kysely<unknown>
    await down(untyped)
    await db.insertInto('users').values(account('with-password', '$argon2id$kept')).execute()
    await up(untyped)
    await db.insertInto('users').values(account('passkey-only', null)).execute()
    const rows = await db.selectFrom('users').select(['id', 'passwordHash']).where('id', 'in', ['with-password', 'passkey-only']).orderBy('id').execute()
    expect(rows).toEqual([
      { id: 'passkey-only', passwordHash: null },
      { id: 'with-password', passwordHash: '$argon2id$kept' }
    ])

    await expect(down(untyped)).rejects.toThrow('1 account(s) have no password')
    await db.deleteFrom('users').where('id', '=', 'passkey-only').execute()
    await down(untyped)
    await expect(db.insertInto('users').values(account('none-again', null)).execute()).rejects.toThrow()
    await up(untyped)
    await db.deleteFrom('users').execute()
  })
})
