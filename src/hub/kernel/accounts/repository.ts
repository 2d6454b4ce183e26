import type { Insertable, Kysely } from 'kysely'
import type { Database, UserRow, UsersTable } from '../../../shared/database/schema.js'

export function createUsersRepository(db: Kysely<Database>) {
  return {
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
    },
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
    },
    /** False when the email is already taken (the unique index decides, so two racing sign-ups cannot both win). */
    async insert(user: Insertable<UsersTable>, executor: Kysely<Database> = db): Promise<boolean> {
      const result = await executor
        .insertInto('users')
        .values(user)
        .onConflict((conflict) => conflict.column('email').doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    }
  }
}

export type UsersRepository = ReturnType<typeof createUsersRepository>
