import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

/** The console's front page in numbers (`GET /api/admin/overview`). */
export interface Overview {
  accounts: number
  /** Administrators, enabled or not. */
  admins: number
  disabled: number
  /** Neither used nor withdrawn, and not expired. */
  pendingInvitations: number
  /** Mail not sent yet: waiting for its next attempt, or given up on. */
  queuedMail: number
  /** Security events an application has not accepted yet. */
  pendingSecurityEvents: number
}

/** Counts what the overview shows, each in one query. */
export async function overviewOf(db: Kysely<Database>, now: Date): Promise<Overview> {
  const count = <Count extends { count: number | string }>(row: Count) => Number(row.count)
  const [users, invitations, mail, events] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string | null>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
        eb.fn.sum<number | string | null>(eb.case().when('disabled', '<>', 0).then(1).else(0).end()).as('disabled')
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('usedAt', 'is', null)
      .where('withdrawnAt', 'is', null)
      .where('expiresAt', '>', now.toISOString())
      .executeTakeFirstOrThrow(),
    db.selectFrom('mailQueue').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    db.selectFrom('securityEventOutbox').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow()
  ])
  return {
    accounts: count(users),
    admins: Number(users.admins ?? 0),
    disabled: Number(users.disabled ?? 0),
    pendingInvitations: count(invitations),
    queuedMail: count(mail),
    pendingSecurityEvents: count(events)
  }
}
