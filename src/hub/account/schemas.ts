import { Type } from 'typebox'
import { Credentials } from '../schemas.js'

/** Mailed tokens are 43 characters; the cap only bounds what a request may send. */
const MailToken = Type.String({ maxLength: 128, description: 'The token from the mailed link, after `#token=`' })

export const PasswordResetRequest = Type.Object({ email: Credentials.properties.email })
export const PasswordResetConfirmation = Type.Object({ token: MailToken, password: Credentials.properties.password })
export const EmailVerification = Type.Object({ token: MailToken })

export const Done = { type: 'null', description: 'Done' } as const
