import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { failureForLog } from '../../shared/database/availability.js'
import type { AccessResolver } from '../../shared/access-grants/access-resolver.js'
import type { AccessGrant, Permission } from '../../shared/access-grants/grant.js'
import { forbidden, serviceUnavailable } from '../../shared/errors.js'
import { maskIdentifier } from '../../shared/logging.js'
import type { IdentifyCaller } from '../identity.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The acting user, set by the access check. */
    userId: string
    /** The user's grant for this application; null when the grants store failed and the request went on. */
    grant: AccessGrant | null
  }
  interface FastifyContextConfig {
    /** The permission a route needs when permissions are enabled. */
    permission?: Permission
  }
}

export interface AccessCheckOptions {
  identify: IdentifyCaller
  resolver: AccessResolver
  applicationId: string
  permissionsEnabled: boolean
}

/**
 * The spec's access check: before every task route, identify the user (see identity.ts) and make sure
 * they hold a grant for this application, granting the default one on first use. When the grants
 * store fails the request goes on (spec rule 4), unless permissions are enforced: then it fails closed.
 */
export const accessCheck = fp<AccessCheckOptions>(
  async function accessCheck(app: FastifyInstance, { identify, resolver, applicationId, permissionsEnabled }) {
    app.decorateRequest('userId', '')
    app.decorateRequest('grant', null)

    app.addHook('onRequest', async (request, reply) => {
      const userId = await identify(request, reply)
      request.userId = userId
      try {
        request.grant = await resolver.resolve(userId, applicationId)
      } catch (error) {
        request.log.error({ ...failureForLog(error), user: maskIdentifier(userId) }, 'access check failed')
        if (permissionsEnabled) throw serviceUnavailable('Access grants are unavailable')
      }
      // Before the body is read or validated: a user who may not write learns only that, never
      // what was wrong with a body they may not send anyway.
      const needed = request.routeOptions.config.permission
      if (permissionsEnabled && needed && !request.grant?.permissions.includes(needed)) throw forbidden('Permission denied')
    })
  },
  { name: 'access-check' }
)

