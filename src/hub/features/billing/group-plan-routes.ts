import { Type } from 'typebox'
import { badRequest, notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { conflict } from '../../kernel/http/http-errors.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { GROUP_PLAN_SOURCES, type GroupPlanView, type GroupPlans, NO_GROUP_PLAN, NO_SUCH_GROUP, NothingToShare } from './group-plans.js'
import { HOUSEHOLD_PATH } from './paths.js'
import { FREE_PLAN_ID, PlanError } from './plans.js'

export const GroupPlan = Type.Object({
  group: Type.Object({ id: Type.String(), name: Type.String() }),
  plan: Type.Object({ id: Type.String(), name: Type.String(), entitlements: Type.Array(Type.String()) }),
  source: Type.Enum(GROUP_PLAN_SOURCES, { description: 'Set by hand, or paid by an administrator’s Stripe subscription' }),
  paidBy: Type.Union([Type.String({ description: 'The user id of the administrator whose subscription pays for it' }), Type.Null()]),
  until: Type.Union([Type.String({ format: 'date-time', description: 'When a plan set by hand ends' }), Type.Null()]),
  inEffect: Type.Boolean({ description: 'False once its date passed, or once the subscription no longer grants its plan' }),
  updatedAt: Type.String({ format: 'date-time' })
})

const GroupParams = Type.Object({ id: Type.String({ maxLength: 64 }) })
const PlanBody = Type.Object(
  {
    plan: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the plan (free removes the group’s plan)' }),
    until: Type.Optional(Type.Union([Type.String({ format: 'date-time', description: 'When it ends; absent or null for good' }), Type.Null()]))
  },
  { additionalProperties: false }
)

const read = { session: 'required', role: 'admin' } as const
const change = { ...read, recentSignIn: true } as const

/** Planning errors are the administrator's input: 400 with the reason. */
async function asInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PlanError) throw badRequest(error.message)
    throw error
  }
}

/**
 * The household plan in the admin API (docs/billing.md, "The household plan"): a group's plan, read,
 * set by hand or removed, with the same functions as `billing:set --group`.
 */
export async function groupPlanRoutes(app: App, { groupPlans, now }: { groupPlans: GroupPlans; now: () => Date }) {
  const tags = ['admin', 'billing']

  app.get(
    '/api/admin/groups/:id/plan',
    { config: read, schema: { summary: 'A group’s plan, which every member has beside their own', tags, params: GroupParams, response: { 200: GroupPlan, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const view = await groupPlans.view(request.params.id, now())
      if (!view) throw notFound(await missing(request.params.id))
      return view
    }
  )

  app.put(
    '/api/admin/groups/:id/plan',
    {
      config: change,
      schema: {
        summary: 'Give a group a plan by hand, until a date or for good (replacing a subscription’s)',
        description: 'Plan `free` removes the group’s plan (answered 204).',
        tags,
        params: GroupParams,
        body: PlanBody,
        response: { 200: GroupPlan, 204: Type.Null(), ...errorResponses(400, 401, 403, 404) }
      }
    },
    async (request, reply) => {
      const { plan, until } = request.body
      const by = sessionOf(request).userId
      const view = await asInput(() => groupPlans.setByHand(request.params.id, plan, until ? new Date(until) : null, by, now()))
      if (view) return view
      if (plan === FREE_PLAN_ID && (await exists(request.params.id))) return reply.code(204).send(null)
      throw notFound(NO_SUCH_GROUP)
    }
  )

  app.delete(
    '/api/admin/groups/:id/plan',
    { config: change, schema: { summary: 'Remove a group’s plan, whichever pays for it', tags, params: GroupParams, response: { 204: Type.Null(), ...errorResponses(401, 403, 404) } } },
    async (request, reply) => {
      if (!(await groupPlans.remove(request.params.id, sessionOf(request).userId, now()))) throw notFound(await missing(request.params.id))
      return reply.code(204).send(null)
    }
  )

  const exists = (groupId: string) => groupPlans.groupExists(groupId)

  async function missing(groupId: string): Promise<string> {
    return (await exists(groupId)) ? NO_GROUP_PLAN : NO_SUCH_GROUP
  }
}

/**
 * `POST /api/billing/household` (docs/billing.md, "The household plan"): an administrator's own
 * Stripe subscription pays for a group's plan, for as long as it grants its plan.
 */
export async function householdRoutes(app: App, { groupPlans, now }: { groupPlans: GroupPlans; now: () => Date }) {
  app.post(
    HOUSEHOLD_PATH,
    {
      config: { session: 'required', role: 'admin', recentSignIn: true },
      schema: {
        summary: 'Let your Stripe subscription pay for a group’s plan: one payment covers the household',
        description: 'The group has your subscription’s plan while it is active (or past due within the grace period); it loses it when the subscription ends.',
        tags: ['billing'],
        body: Type.Object({ groupId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: GroupPlan, ...errorResponses(401, 403, 404, 409) }
      }
    },
    async (request): Promise<GroupPlanView> => {
      try {
        const view = await groupPlans.attachSubscription(request.body.groupId, sessionOf(request).userId, now())
        if (!view) throw notFound(NO_SUCH_GROUP)
        return view
      } catch (error) {
        if (error instanceof NothingToShare) throw conflict(error.message)
        throw error
      }
    }
  )
}
