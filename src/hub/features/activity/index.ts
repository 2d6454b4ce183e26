import type { HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { createActivityLog } from './activity.js'
import { activityPages } from './pages.js'
import { activityRoutes } from './routes.js'

/** A person's activity (docs/activity.md): the hub's own records, so served whichever provider signs people in. */
export function activityFeature(kernel: Kernel): HubFeature {
  const activity = createActivityLog(kernel.db, kernel.now)
  return {
    async routes(app) {
      await app.register(activityRoutes, { activity })
    },
    pages: () => activityPages(activity)
  }
}
