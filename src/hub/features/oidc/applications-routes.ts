import { Type } from 'typebox'
import { notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { requestOrigin } from '../../kernel/audit/context.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { type ConnectedApplications, type ConsentLog, consentPurposeOf } from './connected-applications.js'

const APPLICATIONS_PATH = '/api/account/applications'
const tags = ['account']

const ApplicationsResponse = Type.Object({
  applications: Type.Array(
    Type.Object({
      clientId: Type.String(),
      name: Type.String(),
      scopes: Type.Array(Type.String(), { description: 'The scopes granted, of all its grants' }),
      grantedAt: Type.String({ format: 'date-time', description: 'The earliest live grant' })
    })
  )
})
const ApplicationParams = Type.Object({ clientId: Type.String({ description: 'A client id from the list' }) })

export interface ConnectedApplicationRoutesOptions {
  connectedApplications: ConnectedApplications
  privacy: Pick<ConsentLog, 'recordConsent'>
}

/** The applications a person let sign them in over OpenID Connect (docs/oidc.md). The session stage has checked the cookie. */
export async function connectedApplicationRoutes(app: App, { connectedApplications, privacy }: ConnectedApplicationRoutesOptions) {
  app.get(
    APPLICATIONS_PATH,
    { config: { session: 'required' }, schema: { summary: 'List the applications you let sign you in over OpenID Connect', tags, response: { 200: ApplicationsResponse, ...errorResponses(401) } } },
    async (request) => ({ applications: await connectedApplications.list(sessionOf(request).userId) })
  )

  app.delete<{ Params: { clientId: string } }>(
    `${APPLICATIONS_PATH}/:clientId`,
    {
      config: { session: 'required' },
      schema: {
        summary: 'Disconnect an application: its grants end, and with them every token it holds for you',
        tags,
        params: ApplicationParams,
        response: { 204: { type: 'null', description: 'Disconnected' }, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const { userId } = sessionOf(request)
      const { clientId } = request.params
      if (!(await connectedApplications.revoke(userId, clientId))) throw notFound('No connected application has this id')
      await privacy.recordConsent(userId, { purpose: consentPurposeOf(clientId), granted: false, version: null }, requestOrigin(request))
      return reply.code(204).send(null)
    }
  )
}
