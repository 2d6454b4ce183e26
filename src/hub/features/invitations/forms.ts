import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import type { Database } from '../../../shared/database/schema.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import { isLanguage } from '../../kernel/language/language.js'
import type { RecentSignIn } from '../../kernel/sessions/recent-sign-in.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { InvitationsError, InvitationsNotice } from './messages.js'
import { INVITATIONS_PATH } from './pages.js'
import { actorOf, administratorLanguage } from './routes.js'
import { INVITATION_REFUSALS, type Invitations } from './service.js'

export interface InvitationFormsOptions {
  invitations: Invitations
  audit: AuditRequest
  recentSignIn: RecentSignIn
  db: Kysely<Database>
}

/** Where the console sends an administrator whose last proof is older than a change allows; it sends them back to `next`. */
const CONFIRM_PATH = '/admin/confirm'

// The fields arrive as the browser sends them; the rules are the service's, as for the API.
const Fields = Type.Object({}, { additionalProperties: true })

/** The console's words for a refusal of the service. */
function errorKeyOf(error: HttpError): InvitationsError {
  if (error.message === INVITATION_REFUSALS.closed) return 'closed'
  if (error.message === INVITATION_REFUSALS.hasAccount) return 'hasAccount'
  if (error.message === INVITATION_REFUSALS.noPending) return 'noPending'
  if (error.message.startsWith('Email ')) return 'email'
  if (error.message.startsWith('No group is named ')) return 'group'
  return 'generic'
}

function values(fields: unknown, name: string): string[] {
  const value = (fields as Record<string, unknown>)[name]
  return [value].flat().filter((one): one is string => typeof one === 'string')
}

/**
 * The console's invitations forms, which work without script (docs/administration.md,
 * "Invitations"): each asks a recent sign-in as the API does, calls the service the API calls, and
 * comes back to the page with what happened. The link is never shown: it goes by mail only.
 */
export async function invitationForms(app: App, { invitations, audit, recentSignIn, db }: InvitationFormsOptions) {
  acceptFormBodies(app as unknown as FastifyInstance)
  const config = { session: 'required', role: 'admin', csrf: 'form' } as const

  const change = async (request: FastifyRequest, reply: FastifyReply, work: () => Promise<InvitationsNotice>) => {
    if (!(await recentSignIn.isRecent(sessionOf(request).id))) return reply.redirect(`${CONFIRM_PATH}?next=${encodeURIComponent(INVITATIONS_PATH)}`, 303)
    let notice: InvitationsNotice
    try {
      notice = await work()
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error
      return reply.redirect(`${INVITATIONS_PATH}?error=${errorKeyOf(error)}`, 303)
    }
    return reply.redirect(`${INVITATIONS_PATH}?notice=${notice}`, 303)
  }

  app.post(INVITATIONS_PATH, { config, schema: { hide: true, body: Fields } }, async (request, reply) =>
    change(request, reply, async () => {
      const [email = ''] = values(request.body, 'email')
      const [chosen] = values(request.body, 'language')
      const language = isLanguage(chosen) ? chosen : await administratorLanguage(db, request)
      await invitations.invite({ email, groups: values(request.body, 'groups'), language }, actorOf(request, audit))
      return 'sent'
    })
  )

  app.post(`${INVITATIONS_PATH}/:id/withdraw`, { config, schema: { hide: true, params: Type.Object({ id: Type.String({ maxLength: 64 }) }), body: Fields } }, async (request, reply) =>
    change(request, reply, async () => {
      await invitations.withdraw(request.params.id, actorOf(request, audit))
      return 'withdrawn'
    })
  )
}
