import { Type } from 'typebox'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { RECOVERY_CODE_COUNT } from './recovery-codes.js'

export const TotpCode = Type.String({ maxLength: 16, description: 'The 6 digits the authenticator app shows (spaces are ignored)', [PLAIN_TEXT]: true })
export const RecoveryCode = Type.String({ maxLength: 64, description: 'One of the recovery codes (case, spaces and dashes are ignored)', [PLAIN_TEXT]: true })

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
