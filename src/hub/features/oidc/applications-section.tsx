import type { PageContext } from '../../kernel/pages/layout.js'
import { policyWithImages } from '../../kernel/security/security-headers.js'
import type { PageSection } from '../../kernel/pages/shell.js'
import type { ConnectedApplication, ConnectedApplications } from './connected-applications.js'
import { oidcTranslatorFor } from './messages.js'

/** The account page's section of the applications signed in with the hub, read for the person. */
export function connectedApplicationsSection(connectedApplications: Pick<ConnectedApplications, 'list'>): PageSection {
  return async (session, reply) => {
    const applications = await connectedApplications.list(session.userId)
    const logos = applications.flatMap((application) => (application.logoUrl === null ? [] : [application.logoUrl]))
    reply.header('content-security-policy', policyWithImages(String(reply.getHeader('content-security-policy')), logos))
    return (context) => <ConnectedApplicationsSection context={context} applications={applications} />
  }
}

/** An application's logo, the size of a line of text; nothing when it has none. */
export function ApplicationLogo({ logoUrl, alt, size = 24 }: { logoUrl: string | null; alt: string; size?: number }) {
  return logoUrl === null ? null : <img class="application-logo" src={logoUrl} alt={alt} width={size} height={size} loading="lazy" referrerpolicy="no-referrer" />
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
              <ApplicationLogo logoUrl={application.logoUrl} alt={t('applications.logo', { name: application.name })} />
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
