import { type Static, Type } from 'typebox'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { LANGUAGES, type Language } from '../language/language.js'
import { EMAIL_MAX_LENGTH } from './credentials.js'

/** Long enough for any password we accept; the cap bounds the hashing work a request can ask for. */
export const PASSWORD_INPUT_MAX_LENGTH = 1024
export const Credentials = Type.Object({
  // A little over the stored maximum, so surrounding spaces are trimmed rather than refused.
  email: Type.String({ maxLength: EMAIL_MAX_LENGTH + 64, description: 'Compared case-insensitively', [PLAIN_TEXT]: true }),
  password: Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH })
})
export type Credentials = Static<typeof Credentials>

/** The language a person chose as they make their account, the account's until they choose another. */
export const ChosenLocale = Type.Unsafe<Language>({
  type: 'string',
  enum: [...LANGUAGES],
  description: "The language the person chose, the account's until they choose another; without it, pages and mail follow the browser"
})

export const SignupRequest = Type.Object({
  ...Credentials.properties,
  invitation: Type.Optional(
    Type.String({ maxLength: 64, description: "The token of an administrator's invitation (the `/invite` link's): needed with HUB_SIGNUP=invite; the account then has the invited address, counted as proven, and the invitation's groups" })
  ),
  locale: Type.Optional(ChosenLocale)
})
