import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { GROUP_DESCRIPTION_MAX_LENGTH, GROUP_NAME_MAX_LENGTH, GROUP_REFUSALS, type GroupActor, type Groups } from './service.js'

export interface GroupRoutesOptions {
  groups: Groups
  audit: AuditRequest
}

const Group = Type.Object({
  id: Type.String(),
  name: Type.String({ description: "Unique whatever its case; what applications read in the `groups` claim" }),
  description: Type.String(),
  members: Type.Integer({ description: 'How many accounts are in the group' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' })
})

const GroupWithAccounts = Type.Object({
  ...Group.properties,
  accounts: Type.Array(
    Type.Object({ userId: Type.String(), email: Type.String(), displayName: Type.Union([Type.String(), Type.Null()]), addedAt: Type.String({ format: 'date-time' }) }),
    { description: 'The members, by address' }
  )
})

// A little over the limits, so surrounding spaces are trimmed rather than refused; the rules (service.ts) say the rest.
const Name = Type.String({ maxLength: GROUP_NAME_MAX_LENGTH * 4 + 16, description: `1 to ${GROUP_NAME_MAX_LENGTH} letters, digits, single spaces, dots, hyphens or underscores, beginning and ending with a letter or digit`, [PLAIN_TEXT]: true })
const Description = Type.String({ maxLength: GROUP_DESCRIPTION_MAX_LENGTH * 4 + 16, description: `Up to ${GROUP_DESCRIPTION_MAX_LENGTH} characters`, [PLAIN_TEXT]: true })
const GroupParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
const MemberParams = Type.Object({ id: Type.String({ maxLength: 64 }), userId: Type.String({ maxLength: 64 }) })

const tags = ['admin']
const read = { session: 'required', role: 'admin' } as const
const change = { ...read, recentSignIn: true } as const

/** The administrator's who makes a change, as the touched people's trails name them. */
export function actorOf(request: FastifyRequest, audit: AuditRequest): GroupActor {
  return { userId: sessionOf(request).userId, record: (event) => audit(request, event) }
}

/** The admin API's groups (docs/administration.md, "Groups"). */
export async function groupRoutes(app: App, { groups, audit }: GroupRoutesOptions) {
  app.get(
    '/api/admin/groups',
    { config: read, schema: { summary: 'List the groups, by name, with how many members each has', tags, response: { 200: Type.Object({ groups: Type.Array(Group) }), ...errorResponses(401, 403) } } },
    async () => ({ groups: await groups.list() })
  )

  app.post(
    '/api/admin/groups',
    {
      config: change,
      schema: {
        summary: 'Make a group',
        tags,
        body: Type.Object({ name: Name, description: Type.Optional(Description) }, { additionalProperties: false }),
        response: { 201: Group, ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request, reply) => reply.code(201).send(await groups.create(request.body, actorOf(request, audit)))
  )

  app.get(
    '/api/admin/groups/:id',
    { config: read, schema: { summary: 'A group and its members', tags, params: GroupParams, response: { 200: GroupWithAccounts, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const group = await groups.find(request.params.id)
      if (!group) throw notFound(GROUP_REFUSALS.noGroup)
      return group
    }
  )

  app.patch(
    '/api/admin/groups/:id',
    {
      config: change,
      schema: {
        summary: 'Rename or describe a group',
        tags,
        params: GroupParams,
        body: Type.Object({ name: Type.Optional(Name), description: Type.Optional(Description) }, { additionalProperties: false }),
        response: { 200: Group, ...errorResponses(400, 401, 403, 404, 409) }
      }
    },
    async (request) => groups.update(request.params.id, request.body, actorOf(request, audit))
  )

  app.delete(
    '/api/admin/groups/:id',
    { config: change, schema: { summary: "Delete a group; its members' trails say they left it", tags, params: GroupParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } } },
    async (request, reply) => {
      await groups.remove(request.params.id, actorOf(request, audit))
      return reply.code(204).send(null)
    }
  )

  app.put(
    '/api/admin/groups/:id/members/:userId',
    { config: change, schema: { summary: 'Put an account in a group (already in it: nothing changes)', tags, params: MemberParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } } },
    async (request, reply) => {
      await groups.addMember(request.params.id, request.params.userId, actorOf(request, audit))
      return reply.code(204).send(null)
    }
  )

  app.delete(
    '/api/admin/groups/:id/members/:userId',
    { config: change, schema: { summary: 'Take an account out of a group (not in it: nothing changes)', tags, params: MemberParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } } },
    async (request, reply) => {
      await groups.removeMember(request.params.id, request.params.userId, actorOf(request, audit))
      return reply.code(204).send(null)
    }
  )
}
