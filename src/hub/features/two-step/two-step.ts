import type { Kysely } from 'kysely'
import type { Database, TotpCredentialsTable, UserRow } from '../../../shared/database/schema.js'
import { badRequest, notFound } from '../../../shared/errors.js'
import { languageOfAccount } from '../../kernel/language/account-language.js'
import type { Language } from '../../kernel/language/language.js'
import { conflict } from '../../kernel/http/http-errors.js'
import type { MailQueue } from '../../kernel/mail/queue.js'
import { type TwoStepChange, twoStepNoticeMail } from './mails.js'
import type { SecretBox } from '../../kernel/security/secret-box.js'
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js'
import type { TwoStepRepository } from './repository.js'
import { CODE_PATTERN, matchingStep, newTotpSecret, otpauthUri } from './totp.js'
import { loadOnce } from '../../../shared/load-once.js'

export interface TwoStepDependencies {
  db: Kysely<Database>
  repository: TwoStepRepository
  secretBox: SecretBox
  mailQueue: MailQueue
  publicUrl: string
}

export interface TotpSetup {
  secret: string
  otpauthUri: string
  qrSvg: string
}

export const ALREADY_ON = 'Two-step sign-in is already on; turn it off first to set up another app'
export const NOT_ON = 'Two-step sign-in is not on for this account'
export const WRONG_CODE = 'The code is incorrect'
export const MALFORMED_CODE = 'The code must be the 6 digits the authenticator app shows'

/** The QR code library, imported with the first set-up: it draws nothing else. */
const qrCodes = loadOnce(async () => (await import('qrcode')).default)

/** A code as typed, spaces allowed ("123 456"); 400 for anything but six digits. */
export function typedCode(code: string): string {
  const digits = code.replace(/\s/g, '')
  if (!CODE_PATTERN.test(digits)) throw badRequest(MALFORMED_CODE)
  return digits
}

/**
 * Two-step sign-in with an authenticator app: its secret sealed at rest, its codes accepted once
 * each, and its recovery codes; each change is mailed to the account in the transaction making it.
 */
export function createTwoStep({ db, repository, secretBox, mailQueue, publicUrl }: TwoStepDependencies) {
  /** `requestLanguage`: the language of the request making the change, for an account that chose none. */
  const notify = async (user: UserRow, change: TwoStepChange, now: Date, executor: Kysely<Database>, requestLanguage?: Language) => {
    const mail = twoStepNoticeMail({ publicUrl, language: languageOfAccount(user.locale, requestLanguage), email: user.email, change })
    await mailQueue.enqueue({ ...mail, to: user.email, userId: user.id }, now, executor)
  }
  const issueRecoveryCodes = async (userId: string, now: Date, executor: Kysely<Database>): Promise<string[]> => {
    const codes = newRecoveryCodes()
    await repository.replaceRecoveryCodes(userId, codes.map(recoveryCodeHash), now, executor)
    return codes
  }
  /** The step of a code of the account's credential, or null. */
  const stepOf = (credential: Pick<TotpCredentialsTable, 'userId' | 'secretCiphertext'>, code: string, now: Date): number | null =>
    matchingStep(secretBox.open(credential.secretCiphertext, credential.userId), code, now)

  return {
    async isOn(userId: string): Promise<boolean> {
      return (await repository.credentialOf(userId))?.confirmedAt != null
    },

    /** A new secret, pending until a code of it is confirmed; a pending one before it is dropped. 409 while on. */
    async begin(user: UserRow, now: Date): Promise<TotpSetup> {
      const secret = newTotpSecret()
      if (!(await repository.savePending(user.id, secretBox.seal(secret, user.id), now))) throw conflict(ALREADY_ON)
      const uri = otpauthUri(secret, user.email)
      return { secret, otpauthUri: uri, qrSvg: await (await qrCodes()).toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) }
    },

    /** Turns it on with a code of the pending secret; answers the new recovery codes. */
    async confirm(user: UserRow, code: string, now: Date, requestLanguage?: Language): Promise<string[]> {
      const credential = await repository.credentialOf(user.id)
      if (credential?.confirmedAt != null) throw conflict(ALREADY_ON)
      if (!credential) throw conflict('No set-up is pending: start one with POST /api/account/totp')
      const step = stepOf(credential, typedCode(code), now)
      if (step === null) throw badRequest(WRONG_CODE)
      return db.transaction().execute(async (trx) => {
        if (!(await repository.useStep(user.id, step, false, now, trx))) throw badRequest(WRONG_CODE)
        await notify(user, { kind: 'enabled' }, now, trx, requestLanguage)
        return issueRecoveryCodes(user.id, now, trx)
      })
    },

    /** Turns it off (or drops a pending set-up, quietly); 404 when there is neither. Answers whether it was on. */
    async disable(user: UserRow, now: Date, requestLanguage?: Language): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const { removed, wasOn } = await repository.remove(user.id, trx)
        if (!removed) throw notFound(NOT_ON)
        if (wasOn) await notify(user, { kind: 'disabled' }, now, trx, requestLanguage)
        return wasOn
      })
    },

    /**
     * An administrator's reset for a person who lost their phone (docs/administration.md): removes
     * the credential, its recovery codes and its logins waiting for a code, and mails the person, in
     * their chosen language, that an administrator turned it off. Answers whether it was on; when it
     * was not, a pending set-up is dropped quietly and no mail goes.
     */
    async removeByAdministrator(userId: string, now: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const { wasOn } = await repository.remove(userId, trx)
        if (!wasOn) return false
        const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst()
        if (user) await notify(user, { kind: 'removed-by-administrator' }, now, trx)
        return true
      })
    },

    /** New recovery codes in place of all the old ones; 409 while it is off. */
    async regenerateRecoveryCodes(user: UserRow, now: Date): Promise<string[]> {
      if (!(await this.isOn(user.id))) throw conflict(NOT_ON)
      return db.transaction().execute((trx) => issueRecoveryCodes(user.id, now, trx))
    },

    /** Whether the code is right for the account's confirmed credential and its step not used yet; it is used then. */
    async acceptCode(userId: string, code: string, now: Date): Promise<boolean> {
      const credential = await repository.credentialOf(userId)
      if (credential?.confirmedAt == null) return false
      const step = stepOf(credential, code, now)
      return step !== null && (await repository.useStep(userId, step, true, now))
    },

    /** Uses one of the account's recovery codes and mails the owner; the codes left, or null when it is not one. */
    async useRecoveryCode(user: UserRow, code: string, now: Date, requestLanguage?: Language): Promise<number | null> {
      if (!(await repository.useRecoveryCode(user.id, recoveryCodeHash(code)))) return null
      const remaining = await repository.recoveryCodesLeft(user.id)
      await notify(user, { kind: 'recovery-code-used', remaining }, now, db, requestLanguage)
      return remaining
    }
  }
}

export type TwoStep = ReturnType<typeof createTwoStep>
