import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { EMAIL_MAX_LENGTH } from '../../kernel/accounts/credentials.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { browserLanguageOf, languageOfAccount } from '../../kernel/language/account-language.js'
import { LANGUAGES, type Language } from '../../kernel/language/language.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { InvitationActor, Invitations } from './service.js'
import type { Kysely } from 'kysely'
import type { Database } from '../../../shared/database/schema.js'

export interface InvitationRoutesOptions {
  invitations: Invitations
  audit: AuditRequest
  db: Kysely<Database>
}

const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  groups: Type.Array(Type.String(), { description: 'The names of the groups the person joins' }),
  invitedBy: Type.Union([Type.String(), Type.Null()], { description: "The administrator's address; null when sent from the terminal" }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time', description: '7 days after it was sent' })
})

const InviteBody = Type.Object(
  {
    email: Type.String({ maxLength: EMAIL_MAX_LENGTH + 64, [PLAIN_TEXT]: true }),
    groups: Type.Optional(Type.Array(Type.String({ maxLength: 300, [PLAIN_TEXT]: true }), { maxItems: 100, description: 'Group names, whatever their case; each must exist' })),
    language: Type.Optional(
      Type.Unsafe<Language>({ type: 'string', enum: [...LANGUAGES], description: "The mail's language; without it, the administrator's own (the one they chose, else their browser's)" })
    )
  },
  { additionalProperties: false }
)

const tags = ['admin']
const read = { session: 'required', role: 'admin' } as const
const change = { ...read, recentSignIn: true } as const

/** The administrator who sends or withdraws, on whose trail it is recorded. */
export function actorOf(request: FastifyRequest, audit: AuditRequest): InvitationActor {
  return { userId: sessionOf(request).userId, record: (event) => audit(request, event) }
}

/** The mail's language when the administrator names none: theirs. */
export async function administratorLanguage(db: Kysely<Database>, request: FastifyRequest): Promise<Language> {
  const account = await db.selectFrom('users').select('locale').where('id', '=', sessionOf(request).userId).executeTakeFirst()
  return languageOfAccount(account?.locale ?? null, browserLanguageOf(request))
}

/** The admin API's invitations (docs/administration.md, "Invitations"). */
export async function invitationRoutes(app: App, { invitations, audit, db }: InvitationRoutesOptions) {
  app.get(
    '/api/admin/invitations',
    { config: read, schema: { summary: 'List the invitations that can still be used, newest first', tags, response: { 200: Type.Object({ invitations: Type.Array(Invitation) }), ...errorResponses(401, 403) } } },
    async () => ({ invitations: await invitations.pending() })
  )

  app.post(
    '/api/admin/invitations',
    {
      config: change,
      schema: {
        summary: 'Invite an address to make an account: a mail with a link to /invite, valid 7 days, single use',
        description: 'An earlier pending invitation of the address is withdrawn. 409 when the address has an account, or HUB_SIGNUP is closed.',
        tags,
        body: InviteBody,
        response: { 201: Type.Object({ id: Type.String(), email: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }), ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request, reply) => {
      const { email, groups, language } = request.body
      const sent = await invitations.invite({ email, groups, language: language ?? (await administratorLanguage(db, request)) }, actorOf(request, audit))
      return reply.code(201).send({ id: sent.id, email: sent.email, expiresAt: sent.expiresAt })
    }
  )

  app.delete(
    '/api/admin/invitations/:id',
    {
      config: change,
      schema: { summary: 'Withdraw a pending invitation: its link stops working', tags, params: Type.Object({ id: Type.String({ maxLength: 64 }) }), response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } }
    },
    async (request, reply) => {
      await invitations.withdraw(request.params.id, actorOf(request, audit))
      return reply.code(204).send(null)
    }
  )
}
