import type { UsersRepository } from '../../kernel/accounts/repository.js'
import type { SecondFactorGate } from '../../kernel/sessions/second-factor.js'
import type { LoginChallenges } from './login-challenges.js'
import type { TwoStep } from './two-step.js'

/** Reauthentication's 403 for the password while two-step sign-in is on (docs/security-settings.md). */
export const SECOND_FACTOR_REQUIRED = 'Two-step sign-in is on: confirm with a code from your authenticator app or a passkey'

/** Two-step sign-in as the kernel's second factor: login answers its challenge, and the password alone confirms no session. */
export function createSecondFactorGate({ twoStep, challenges, users }: { twoStep: TwoStep; challenges: LoginChallenges; users: UsersRepository }): SecondFactorGate {
  return {
    /** A challenge for the account whose password was just matched, or null when two-step sign-in is off. */
    async challengeFor(userId: string, now: Date): Promise<string | null> {
      if (!(await twoStep.isOn(userId))) return null
      const user = await users.findById(userId)
      return user ? challenges.issue(userId, user.passwordHash, now) : null
    },
    isOn: (userId) => twoStep.isOn(userId),
    removeFor: (userId, now) => twoStep.removeByAdministrator(userId, now),
    passwordRefused: {
      error: SECOND_FACTOR_REQUIRED,
      described: 'With two-step sign-in on, the password is refused (403): the proof must be a code of the app or a passkey.'
    }
  }
}
