import { Type } from 'typebox'
import { HttpError } from '../../../shared/errors.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { ACTIVITY_PAGE_SIZE, type ActivityLog } from './activity.js'
import { ActivityPage } from './views/activity.js'

const ActivityQuery = Type.Object({ cursor: Type.Optional(Type.Unknown({ description: 'Where the older page starts' })) })

/** The activity page: the same pages as `GET /api/account/activity` (docs/activity.md). */
export function activityPages(activity: Pick<ActivityLog, 'page' | 'readings'>): HubPage[] {
  /** The page a link asks for; a garbled link to an older page shows the newest one rather than an error. */
  const activityPageFor = async (userId: string, cursor: unknown) => {
    const limit = ACTIVITY_PAGE_SIZE.default
    if (typeof cursor === 'string') {
      try {
        return { list: await activity.page(userId, { limit, cursor }), older: true }
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 400)) throw error
      }
    }
    return { list: await activity.page(userId, { limit }), older: false }
  }
  return [
    {
      path: '/activity',
      signedIn: true,
      querystring: ActivityQuery,
      async render({ request, reply, session, shell }) {
        const { cursor } = request.query as { cursor?: unknown }
        const [{ list, older }, names] = await Promise.all([activityPageFor(session.userId, cursor), shell.applicationNamesNow()])
        return <ActivityPage context={await shell.contextOf(request, reply, session)} activity={list} readings={activity.readings} older={older} names={names} />
      }
    }
  ]
}
