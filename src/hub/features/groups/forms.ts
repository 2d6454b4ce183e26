import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { RecentSignIn } from '../../kernel/sessions/recent-sign-in.js'
import type { GroupsError, GroupsNotice } from './messages.js'
import { GROUPS_PATH, groupPath } from './pages.js'
import { GROUP_REFUSALS, type GroupRefusal, type Groups } from './service.js'
import { actorOf } from './routes.js'

export interface GroupFormsOptions {
  groups: Groups
  audit: AuditRequest
  recentSignIn: RecentSignIn
}

/** Where the console sends an administrator whose last proof is older than a change allows; it sends them back to `next`. */
const CONFIRM_PATH = '/admin/confirm'

// The fields arrive as the browser sends them; the rules are the service's, as for the API.
const Fields = Type.Object({}, { additionalProperties: true })
const GroupParams = Type.Object({ groupId: Type.String({ maxLength: 64 }) })
const MemberParams = Type.Object({ groupId: Type.String({ maxLength: 64 }), userId: Type.String({ maxLength: 64 }) })

const REFUSAL_KEYS = new Map(Object.entries(GROUP_REFUSALS).map(([key, text]) => [text as string, key as GroupRefusal]))

function text(fields: unknown, name: string): string {
  const value = (fields as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : ''
}

/**
 * The console's groups forms, which work without script (docs/administration.md, "Groups"): each
 * asks a recent sign-in as the API does, sending the administrator to confirm it and back; calls the
 * service the API calls; and comes back to its page with what happened, in the page's words.
 */
export async function groupForms(app: App, { groups, audit, recentSignIn }: GroupFormsOptions) {
  acceptFormBodies(app as unknown as FastifyInstance)
  const config = { session: 'required', role: 'admin', csrf: 'form' } as const

  const change = async (request: FastifyRequest, reply: FastifyReply, page: string, work: () => Promise<{ notice: GroupsNotice; to?: string }>) => {
    if (!(await recentSignIn.isRecent(sessionOf(request).id))) return reply.redirect(`${CONFIRM_PATH}?next=${encodeURIComponent(page)}`, 303)
    let outcome: { notice: GroupsNotice; to?: string }
    try {
      outcome = await work()
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error
      const key: GroupsError = REFUSAL_KEYS.get(error.message) ?? 'generic'
      // The group is gone: its page would be a 404.
      return reply.redirect(`${key === 'noGroup' ? GROUPS_PATH : page}?error=${key}`, 303)
    }
    return reply.redirect(`${outcome.to ?? page}?notice=${outcome.notice}`, 303)
  }
  const refuse = (reply: FastifyReply, page: string, error: GroupsError) => reply.redirect(`${page}?error=${error}`, 303)

  app.post(GROUPS_PATH, { config, schema: { hide: true, body: Fields } }, async (request, reply) =>
    change(request, reply, GROUPS_PATH, async () => {
      const group = await groups.create({ name: text(request.body, 'name'), description: text(request.body, 'description') }, actorOf(request, audit))
      return { notice: 'created', to: groupPath(group.id) }
    })
  )

  app.post(`${GROUPS_PATH}/:groupId`, { config, schema: { hide: true, params: GroupParams, body: Fields } }, async (request, reply) => {
    const page = groupPath(request.params.groupId)
    return change(request, reply, page, async () => {
      await groups.update(request.params.groupId, { name: text(request.body, 'name'), description: text(request.body, 'description') }, actorOf(request, audit))
      return { notice: 'updated' }
    })
  })

  app.post(`${GROUPS_PATH}/:groupId/delete`, { config, schema: { hide: true, params: GroupParams, body: Fields } }, async (request, reply) => {
    const page = groupPath(request.params.groupId)
    if (text(request.body, 'confirm') !== 'yes') return refuse(reply, page, 'confirm')
    return change(request, reply, page, async () => {
      await groups.remove(request.params.groupId, actorOf(request, audit))
      return { notice: 'deleted', to: GROUPS_PATH }
    })
  })

  app.post(`${GROUPS_PATH}/:groupId/members`, { config, schema: { hide: true, params: GroupParams, body: Fields } }, async (request, reply) => {
    const page = groupPath(request.params.groupId)
    return change(request, reply, page, async () => {
      await groups.addMemberByEmail(request.params.groupId, text(request.body, 'email'), actorOf(request, audit))
      return { notice: 'added' }
    })
  })

  app.post(`${GROUPS_PATH}/:groupId/members/:userId/remove`, { config, schema: { hide: true, params: MemberParams, body: Fields } }, async (request, reply) => {
    const page = groupPath(request.params.groupId)
    return change(request, reply, page, async () => {
      await groups.removeMember(request.params.groupId, request.params.userId, actorOf(request, audit))
      return { notice: 'removed' }
    })
  })
}
