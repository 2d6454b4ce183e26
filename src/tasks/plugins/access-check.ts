import type { FastifyInstance, FastifyRequest } from 'fastify'
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

/** Where grants come from, and whether their permissions are enforced. */
export interface AccessRule {
  resolver: AccessResolver
  applicationId: string
  permissionsEnabled: boolean
}

export interface AccessCheckOptions extends AccessRule {
  identify: IdentifyCaller
}

/**
 * The spec's access rule for one user, shared by the API and the pages: the grant (the default one
 * on first use), and whether it allows `needed`. When the grants store fails the user goes on
 * (spec rule 4, grant null), unless permissions are enforced: then it fails closed with a 503.
 */
export async function checkAccess(
  { resolver, applicationId, permissionsEnabled }: AccessRule,
  request: FastifyRequest,
  userId: string,
  needed: Permission | undefined
): Promise<{ grant: AccessGrant | null; allowed: boolean }> {
  let grant: AccessGrant | null = null
  try {
    grant = await resolver.resolve(userId, applicationId)
  } catch (error) {
    request.log.error({ ...failureForLog(error), user: maskIdentifier(userId) }, 'access check failed')
    if (permissionsEnabled) throw serviceUnavailable('Access grants are unavailable')
  }
  return { grant, allowed: !permissionsEnabled || needed === undefined || grant?.permissions.includes(needed) === true }
}

/** The spec's access check before every task route: identify the user (see identity.ts), then `checkAccess`. */
export const accessCheck = fp<AccessCheckOptions>(
  async function accessCheck(app: FastifyInstance, { identify, ...rule }) {
    app.decorateRequest('userId', '')
    app.decorateRequest('grant', null)

    app.addHook('onRequest', async (request, reply) => {
      const userId = await identify(request, reply)
      request.userId = userId
      // Before the body is read or validated: a user who may not write learns only that, never
      // what was wrong with a body they may not send anyway.
      const { grant, allowed } = await checkAccess(rule, request, userId, request.routeOptions.config.permission)
      request.grant = grant
      if (!allowed) throw forbidden('Permission denied')
    })
  },
  { name: 'access-check' }
)

