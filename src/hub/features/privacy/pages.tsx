import type { HubPage } from '../../kernel/pages/shell.js'
import type { PrivacyService } from './service.js'
import { PrivacyPage } from './views/privacy.js'

/** The privacy page: settings and consents (docs/privacy.md). */
export function privacyPages(privacy: Pick<PrivacyService, 'settings' | 'consents'>): HubPage[] {
  return [
    {
      path: '/privacy',
      signedIn: true,
      async render({ request, reply, session, shell }) {
        const [settings, consents, names] = await Promise.all([privacy.settings(session.userId), privacy.consents(session.userId), shell.applicationNamesNow()])
        return <PrivacyPage context={await shell.contextOf(request, reply, session)} settings={settings} consents={consents} names={names} />
      }
    }
  ]
}
