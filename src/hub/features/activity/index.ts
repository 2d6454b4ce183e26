import type { HubFeature } from '../../kernel/feature.js'
import type { ActivityReading } from '../../kernel/audit/activity.js'
import type { AuditEventType } from '../../kernel/audit/events.js'
import type { Kernel } from '../../kernel/kernel.js'
import { createActivityLog } from './activity.js'
import { activityPages } from './pages.js'
import { activityRoutes } from './routes.js'

/** A person's activity (docs/activity.md): the hub's own records, so served whichever provider signs people in. */
export function activityFeature(kernel: Kernel, readings: Readonly<Record<AuditEventType, ActivityReading>>): HubFeature {
  const activity = createActivityLog(kernel.db, kernel.now, readings)
  return {
    async routes(app) {
      await app.register(activityRoutes, { activity })
    },
    pages: () => activityPages(activity)
  }
}
