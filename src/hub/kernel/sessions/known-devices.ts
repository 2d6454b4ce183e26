import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { languageOfAccount } from '../language/account-language.js'
import type { MailQueue } from '../mail/queue.js'
import { type SignInOrigin, newDeviceMail } from '../mail/templates.js'
import { deviceName } from '../http/device.js'

/** How many devices an account's memory keeps: the most recently signed in from. */
export const REMEMBERED_DEVICES = 10

/** A known device's last sign-in is rewritten at most this often: most sign-ins then only read. */
const LAST_SEEN_PRECISION_MS = 24 * 60 * 60_000

export interface NewDeviceNoticeOptions {
  db: Kysely<Database>
  mailQueue: MailQueue
  /** HUB_PUBLIC_URL, for the notice's link. */
  publicUrl: string
}

/**
 * The new-device notice (docs/security-settings.md): each account remembers the devices it signed
 * in from, by name, and a sign-in from another one mails the account's address. The first device
 * an account remembers is no news: it is where the person signed in first.
 */
export function createNewDeviceNotices({ db, mailQueue: queue, publicUrl }: NewDeviceNoticeOptions) {

  /** In one transaction: the device is remembered exactly when its notice is queued, so none is lost. */
  const rememberNew = async (userId: string, device: string, origin: SignInOrigin): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      const account = await trx.selectFrom('users').select(['email', 'locale']).where('id', '=', userId).executeTakeFirst()
      // Erased since the session started: nothing to remember, no one to tell.
      if (!account) return false
      const at = origin.at.toISOString()
      // A sign-in racing this one from the same device may have remembered it first: one notice.
      const inserted = await trx
        .insertInto('knownDevices')
        .values({ userId, device, firstSeenAt: at, lastSeenAt: at })
        .onConflict((conflict) => conflict.columns(['userId', 'device']).doNothing())
        .returning('device')
        .executeTakeFirst()
      if (!inserted) return false
      const others = await trx.selectFrom('knownDevices').select('device').where('userId', '=', userId).where('device', '!=', device).limit(1).execute()
      if (others.length === 0) return false
      await trx
        .deleteFrom('knownDevices')
        .where('userId', '=', userId)
        .where('device', 'not in', trx.selectFrom('knownDevices').select('device').where('userId', '=', userId).orderBy('lastSeenAt', 'desc').limit(REMEMBERED_DEVICES))
        .execute()
      const mail = newDeviceMail({ publicUrl, language: languageOfAccount(account.locale, origin.language), email: account.email, origin })
      await queue.enqueue({ ...mail, to: account.email, userId }, origin.at, trx)
      return true
    })

  return {
    /**
     * Records a completed sign-in of a built-in account; true when it came from a device new to
     * the account, whose notice is then queued. A known device costs one read by primary key.
     */
    async signedIn(userId: string, origin: SignInOrigin): Promise<boolean> {
      const device = deviceName(origin.device) ?? ''
      const known = await db.selectFrom('knownDevices').select('lastSeenAt').where('userId', '=', userId).where('device', '=', device).executeTakeFirst()
      if (!known) return rememberNew(userId, device, origin)
      if (origin.at.getTime() - Date.parse(known.lastSeenAt) >= LAST_SEEN_PRECISION_MS) {
        await db.updateTable('knownDevices').set({ lastSeenAt: origin.at.toISOString() }).where('userId', '=', userId).where('device', '=', device).execute()
      }
      return false
    }
  }
}

export type NewDeviceNotices = ReturnType<typeof createNewDeviceNotices>
