import { Type } from 'typebox'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { PASSWORD_INPUT_MAX_LENGTH } from '../../kernel/http/schemas.js'
import { AuthenticationResponse } from '../passkeys/schemas.js'
import { RECOVERY_CODE_COUNT } from './recovery-codes.js'

export const TotpCode = Type.String({ maxLength: 16, description: 'The 6 digits the authenticator app shows (spaces are ignored)', [PLAIN_TEXT]: true })
export const RecoveryCode = Type.String({ maxLength: 64, description: 'One of the recovery codes (case, spaces and dashes are ignored)', [PLAIN_TEXT]: true })

/** Login's answer when the account has two-step sign-in on: no cookie yet. */
export const SecondFactorRequired = Type.Object({
  mfaRequired: Type.Literal(true),
  challenge: Type.String({ description: 'For POST /api/auth/login/second-factor, within 5 minutes' })
})

export const TotpSetupResponse = Type.Object({
  secret: Type.String({ description: 'Base32, for typing into the app' }),
  otpauthUri: Type.String({ description: 'otpauth://totp/... (SHA-1, 6 digits, 30 s)' }),
  qrSvg: Type.String({ description: 'The URI as a QR code, an SVG document' })
})

export const RecoveryCodesResponse = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT, description: 'Each works once; shown only now' })
})

export const CodeBody = Type.Object({ code: TotpCode })

export const SecondFactorBody = Type.Object({
  challenge: Type.String({ maxLength: 128, [PLAIN_TEXT]: true }),
  code: Type.Optional(TotpCode),
  recoveryCode: Type.Optional(RecoveryCode)
})

export const ReauthenticationBody = Type.Object({
  password: Type.Optional(Type.String({ maxLength: PASSWORD_INPUT_MAX_LENGTH })),
  code: Type.Optional(TotpCode),
  passkey: Type.Optional(AuthenticationResponse)
})
