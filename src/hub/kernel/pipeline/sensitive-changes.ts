import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { UsersRepository } from '../accounts/repository.js'
import type { RecentSignIn } from '../sessions/recent-sign-in.js'
import { requireVerifiedAddress } from '../sessions/verified-address.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The change adds a way to sign in: 403 while the account's address is unproven (account
     * pre-hijacking, docs/account.md), asked before the recent sign-in.
     */
    verifiedAddress?: true
    /**
     * A sensitive change: the session's last proof of who holds it must be at most 10 minutes old,
     * else 401 with RFC 9470's challenge (docs/security-settings.md).
     */
    recentSignIn?: true
  }
}

export interface SensitiveChangeStageOptions {
  recentSignIn: RecentSignIn
  users: Pick<UsersRepository, 'findById'>
}

/**
 * Fourth stage, after the input is validated: what a route that changes something sensitive
 * states it needs. A preHandler, so that a malformed request is answered 400 without a read; a
 * callback that returns at once where the route states neither, as most do.
 */
export const sensitiveChangeStage = fp<SensitiveChangeStageOptions>(
  async function sensitiveChangeStage(app: FastifyInstance, { recentSignIn, users }) {
    const verifiedAddress = requireVerifiedAddress(users)
    app.addHook('preHandler', (request, reply, done) => {
      const config = request.routeOptions.config
      if (config.verifiedAddress !== true && config.recentSignIn !== true) return done()
      const checks = async () => {
        if (config.verifiedAddress === true) await verifiedAddress(request)
        if (config.recentSignIn === true) await recentSignIn.require(request, reply)
      }
      checks().then(() => done(), done)
    })
  },
  { name: 'sensitive-change-stage', dependencies: ['session-stage'] }
)
