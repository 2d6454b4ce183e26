import { badRequest } from '../../../shared/errors.js'
import type { ReauthenticationProof } from '../../kernel/sessions/reauthenticate.js'
import { TotpCode } from './schemas.js'
import { NOT_ON, type TwoStep, WRONG_CODE, typedCode } from './two-step.js'

/**
 * A code of the authenticator app as a proof for POST /api/auth/reauthenticate (`{code}`): 400 when
 * it is not six digits or two-step sign-in is off, 401 when wrong or used, counted as a login. A
 * recovery code is never accepted there (docs/security-settings.md).
 */
export function codeProof(twoStep: TwoStep, now: () => Date): ReauthenticationProof<typeof TotpCode> {
  return {
    field: 'code',
    schema: TotpCode,
    method: 'totp',
    named: 'a code from your authenticator app',
    described: 'A recovery code is never accepted here.',
    async check(code, { user, counted }) {
      const digits = typedCode(code)
      if (!(await twoStep.isOn(user.id))) throw badRequest(NOT_ON)
      await counted(() => twoStep.acceptCode(user.id, digits, now()), WRONG_CODE)
    }
  }
}
