import { Type } from 'typebox'
import { Credentials } from '../../kernel/accounts/schemas.js'

/** Mailed tokens are 43 characters; the cap only bounds what a request may send. */
const MailToken = Type.String({ maxLength: 128, description: 'The token from the mailed link, after `#token=`' })

export const PasswordResetRequest = Type.Object({ email: Credentials.properties.email })
export const PasswordResetConfirmation = Type.Object({ token: MailToken, password: Credentials.properties.password })
export const EmailVerification = Type.Object({ token: MailToken })

/** The answer of a reset that was the first proof of the account's address (docs/account.md, "Account pre-hijacking"). */
export const FirstProofReset = Type.Object(
  {
    removed: Type.Object({
      passkeys: Type.Integer({ minimum: 0, description: 'Passkeys removed' }),
      twoStep: Type.Boolean({ description: 'Two-step sign-in was on (or being set up), and is off now, its recovery codes gone' }),
      applications: Type.Integer({ minimum: 0, description: 'Applications whose grants (and remembered consent) to sign the person in were removed' }),
      sessions: Type.Integer({ minimum: 0, description: 'Sessions ended, as by every reset' })
    })
  },
  { description: 'The address was not verified before this reset: the address is verified now, and every way in added before it was removed' }
)

export const Done = { type: 'null', description: 'Done' } as const
