import type { UsersRepository } from '../../kernel/accounts/repository.js'
import type { LoginChallenges } from './login-challenges.js'
import type { TwoStep } from './two-step.js'

/** What login asks before starting a session: whether the account wants a second factor, and then its challenge. */
export function createSecondFactorGate({ twoStep, challenges, users }: { twoStep: TwoStep; challenges: LoginChallenges; users: UsersRepository }) {
  return {
    /** A challenge for the account whose password was just matched, or null when two-step sign-in is off. */
    async challengeFor(userId: string, now: Date): Promise<string | null> {
      if (!(await twoStep.isOn(userId))) return null
      const user = await users.findById(userId)
      return user ? challenges.issue(userId, user.passwordHash, now) : null
    }
  }
}

export type SecondFactorGate = ReturnType<typeof createSecondFactorGate>
