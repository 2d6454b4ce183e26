import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'
import { forbidden, unauthorized } from '../../../shared/errors.js'
import { roleOf } from '../accounts/roles.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'admin'`: with `session: 'required'`, the session's account must be an administrator, else
     * 403 before the input is read. The role is read on every request, never cached: a demoted
     * administrator loses the console at once.
     */
    role?: 'admin'
  }
}

export const ADMINISTRATORS_ONLY = 'Administrators only: this account is not an administrator of this hub'

export interface RoleStageOptions {
  db: Kysely<Database>
}

/** After the session stage: a route for administrators answers 403 to anyone else signed in. */
export const roleStage = fp<RoleStageOptions>(
  async function roleStage(app: FastifyInstance, { db }) {
    app.addHook('onRequest', (request, _reply, done) => {
      if (app.pipelineOptionsOf(request).role !== 'admin') return done()
      // Fails closed: a route stating the role but not the session is refused, never let through.
      if (!request.session) return done(unauthorized('Sign in required'))
      roleOf(db, request.session.userId).then((role) => done(role === 'admin' ? undefined : forbidden(ADMINISTRATORS_ONLY)), done)
    })
  },
  { name: 'role-stage', dependencies: ['session-stage'] }
)
