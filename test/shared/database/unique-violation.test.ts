import { describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../../src/shared/database/unique-violation.js'
import { databasesUnderTest, useDatabase } from '../../helpers/databases.js'

const user = (id: string, email: string) => ({ id, email, passwordHash: 'x', disabled: 0, createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-01T00:00:00.000Z' })

describe.each(databasesUnderTest())('unique violations on $name', (database) => {
  const handle = useDatabase(database)

  it('recognises an UPDATE that takes a unique value, and no other failure', async () => {
    const { db } = handle.current
    await db.insertInto('users').values([user('u-1', 'one@example.com'), user('u-2', 'two@example.com')]).execute()
    const taken = await db.updateTable('users').set({ email: 'one@example.com' }).where('id', '=', 'u-2').execute().catch((error: unknown) => error)
    expect(isUniqueViolation(taken)).toBe(true)
    const other = await db.updateTable('users').set({ disabled: null as unknown as number }).where('id', '=', 'u-2').execute().catch((error: unknown) => error)
    expect(other).toBeInstanceOf(Error)
    expect(isUniqueViolation(other)).toBe(false)
  })
})
