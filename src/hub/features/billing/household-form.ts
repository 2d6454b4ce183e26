import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../../shared/http/server.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import type { RecentSignIn } from '../../kernel/sessions/recent-sign-in.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { type GroupPlans, NothingToShare } from './group-plans.js'

/** The /billing page's form, where an administrator lets their subscription pay for a group. */
export const HOUSEHOLD_FORM_PATH = '/billing/household'

/** What the form's redirect tells the page: `?notice=household`, or `?error=` one of these. */
export const HOUSEHOLD_ERRORS = ['nothing-to-share', 'no-group'] as const
export type HouseholdError = (typeof HOUSEHOLD_ERRORS)[number]

const CONFIRM_PATH = '/admin/confirm'
const BILLING_PAGE = '/billing'
const Fields = Type.Object({}, { additionalProperties: true })

/**
 * `POST /billing/household`, a plain form that works without script (docs/billing.md, "The
 * household plan"): the same function as `POST /api/billing/household`, a recent sign-in asked as
 * the console asks it, and back to /billing with what happened, in the page's words.
 */
export async function householdForm(app: App, { groupPlans, recentSignIn, now }: { groupPlans: GroupPlans; recentSignIn: RecentSignIn; now: () => Date }) {
  acceptFormBodies(app as unknown as FastifyInstance)
  app.post(HOUSEHOLD_FORM_PATH, { config: { session: 'required', role: 'admin', csrf: 'form' }, schema: { hide: true, body: Fields } }, async (request, reply) => {
    const session = sessionOf(request)
    if (!(await recentSignIn.isRecent(session.id))) return reply.redirect(`${CONFIRM_PATH}?next=${encodeURIComponent(BILLING_PAGE)}`, 303)
    const groupId = (request.body as Record<string, unknown>).groupId
    if (typeof groupId !== 'string' || groupId === '') return reply.redirect(`${BILLING_PAGE}?error=no-group`, 303)
    try {
      const attached = await groupPlans.attachSubscription(groupId, session.userId, now())
      return reply.redirect(`${BILLING_PAGE}?${attached ? 'notice=household' : 'error=no-group'}`, 303)
    } catch (error) {
      if (error instanceof NothingToShare) return reply.redirect(`${BILLING_PAGE}?error=nothing-to-share`, 303)
      throw error
    }
  })
}
