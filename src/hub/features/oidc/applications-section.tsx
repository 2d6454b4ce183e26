import type { PageContext } from '../../kernel/pages/layout.js'
import type { PageSection } from '../../kernel/pages/shell.js'
import type { ConnectedApplication, ConnectedApplications } from './connected-applications.js'
import { oidcTranslatorFor } from './messages.js'

/** The account page's section of the applications signed in with the hub, read for the person. */
export function connectedApplicationsSection(connectedApplications: Pick<ConnectedApplications, 'list'>): PageSection {
  return async (session) => {
    const applications = await connectedApplications.list(session.userId)
    return (context) => <ConnectedApplicationsSection context={context} applications={applications} />
  }
}

/**
 * The account page's list of applications signed in with the hub over OpenID Connect; each one's
 * button disconnects it (`DELETE /api/account/applications/{clientId}`, client/applications.ts).
 */
export function ConnectedApplicationsSection({ context, applications }: { context: PageContext; applications: ConnectedApplication[] }) {
  const t = oidcTranslatorFor(context.language)
  return (
    <section aria-labelledby="applications-heading">
      <h2 id="applications-heading">{t('applications.heading')}</h2>
      {applications.length === 0 ? (
        <p>{t('applications.none')}</p>
      ) : (
        <ul>
          {applications.map((application) => (
            <li>
              <span>{application.name}</span>{' '}
              <button type="button" data-action="disconnect-application" data-client-id={application.clientId} aria-label={`${t('applications.revoke')}: ${application.name}`}>
                {t('applications.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
