import { Type } from 'typebox'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { ACTIVITY_PAGE_SIZE, type ActivityLog } from './activity.js'

const ActivityQuery = Type.Object({
  limit: Type.Integer({ minimum: ACTIVITY_PAGE_SIZE.min, maximum: ACTIVITY_PAGE_SIZE.max, default: ACTIVITY_PAGE_SIZE.default }),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'nextCursor of the previous page' }))
})

const NullableString = Type.Union([Type.String(), Type.Null()])
const ActivityEvent = Type.Object({
  type: Type.String({ description: 'An audit event type (docs/activity.md)' }),
  at: Type.String({ format: 'date-time' }),
  ip: NullableString,
  userAgent: NullableString,
  detail: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields this type shows its owner; never a secret' })
})
const ActivityResponse = Type.Object({
  events: Type.Array(ActivityEvent, { description: 'Newest first' }),
  hasMore: Type.Boolean(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null when hasMore is false' })
})

/** A person's own activity (issue 17), under the session stage's `/api/account`. */
export async function activityRoutes(app: App, { activity }: { activity: ActivityLog }) {
  app.get(
    '/api/account/activity',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Your account activity, newest first, within your retention',
        tags: ['account'],
        querystring: ActivityQuery,
        response: { 200: ActivityResponse, ...errorResponses(400, 401) }
      }
    },
    async (request) => activity.page(sessionOf(request).userId, request.query)
  )
}
