import { Type } from 'typebox'
import { validate as isUuid } from 'uuid'
import { HttpError } from '../../../shared/errors.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { normaliseEmail } from '../../kernel/accounts/credentials.js'
import { AUDIT_EVENT_TYPES, type AuditEventType } from '../../kernel/audit/events.js'
import type { FeaturesDeclared } from '../../kernel/feature.js'
import { CONSOLE_PATH } from '../../kernel/pages/console.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { ADMIN_ACTIVITY_PAGE_SIZE, type AdminActivity, type AdminActivityQuery } from './activity.js'
import { CONFIRM_PATH, consolePathOr, isConfirmRefusal } from './confirm.js'
import { type Overview } from './overview.js'
import type { Queues } from './queues.js'
import { SETUP_LINK_REFUSED, SETUP_PATH } from './setup.js'
import { AdminActivityPage, ConfirmPage, OverviewPage, QueuesPage } from './views/console.js'
import { SetupPage } from './views/setup.js'

const ActivityQuery = Type.Object({
  account: Type.Optional(Type.Unknown({ description: 'An address or an account id' })),
  type: Type.Optional(Type.Unknown({ description: 'An audit event type' })),
  cursor: Type.Optional(Type.Unknown({ description: 'Where the older page starts' }))
})
const ConfirmQuery = Type.Object({ next: Type.Optional(Type.Unknown()), refused: Type.Optional(Type.Unknown()) })

export interface AdminPagesDependencies {
  overview: () => Promise<Overview>
  activity: AdminActivity
  queues: () => Promise<Queues>
  users: Pick<UsersRepository, 'findByEmail'>
  hasAdministrator: () => Promise<boolean>
}

const isAuditType = (value: unknown): value is AuditEventType => typeof value === 'string' && (AUDIT_EVENT_TYPES as readonly string[]).includes(value)

/** The console's own pages (its front page, activity, queues, the confirm step) and the set-up link's page. */
export function adminPages({ overview, activity, queues, users, hasAdministrator }: AdminPagesDependencies, declared: FeaturesDeclared): HubPage[] {
  const sections = declared.consoleSections

  /** The page the filters ask for; a garbled link to an older page shows the newest one rather than an error. */
  const activityPageFor = async (query: Omit<AdminActivityQuery, 'limit' | 'cursor'>, cursor: unknown) => {
    const limit = ADMIN_ACTIVITY_PAGE_SIZE.default
    if (typeof cursor === 'string') {
      try {
        return { list: await activity.page({ ...query, limit, cursor }), older: true }
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 400)) throw error
      }
    }
    return { list: await activity.page({ ...query, limit }), older: false }
  }

  return [
    {
      path: CONSOLE_PATH,
      signedIn: true,
      administrators: true,
      async render({ request, reply, session, shell }) {
        return <OverviewPage context={await shell.contextOf(request, reply, session)} sections={sections} overview={await overview()} />
      }
    },
    {
      path: `${CONSOLE_PATH}/activity`,
      signedIn: true,
      administrators: true,
      querystring: ActivityQuery,
      async render({ request, reply, session, shell }) {
        const query = request.query as { account?: unknown; type?: unknown; cursor?: unknown }
        const account = typeof query.account === 'string' ? query.account.trim().slice(0, 320) : ''
        const type = isAuditType(query.type) ? query.type : undefined
        // An id names an account even once deleted; an address only while it exists.
        let userId: string | null | undefined
        if (account !== '') userId = isUuid(account) ? account : ((await users.findByEmail(normaliseEmail(account)))?.id ?? null)
        const [found, names] = await Promise.all([userId === null ? null : activityPageFor({ userId, type }, query.cursor), shell.applicationNamesNow()])
        return (
          <AdminActivityPage
            context={await shell.contextOf(request, reply, session)}
            sections={sections}
            filters={{ account, type }}
            activity={found?.list ?? null}
            older={found?.older ?? false}
            readings={activity.readings}
            names={names}
          />
        )
      }
    },
    {
      path: `${CONSOLE_PATH}/queues`,
      signedIn: true,
      administrators: true,
      async render({ request, reply, session, shell }) {
        return <QueuesPage context={await shell.contextOf(request, reply, session)} sections={sections} queues={await queues()} />
      }
    },
    {
      path: CONFIRM_PATH,
      signedIn: true,
      administrators: true,
      querystring: ConfirmQuery,
      async render({ request, reply, session, shell }) {
        const { next, refused } = request.query as { next?: unknown; refused?: unknown }
        return (
          <ConfirmPage
            context={await shell.contextOf(request, reply, session)}
            sections={sections}
            next={consolePathOr(next)}
            codeRequired={await declared.secondFactor.isOn(session.userId)}
            refused={isConfirmRefusal(refused) ? refused : undefined}
            csrfToken={reply.formCsrfToken()}
          />
        )
      }
    },
    {
      path: SETUP_PATH,
      signedIn: false,
      async render({ request, reply, session, shell }) {
        const [context, administered] = await Promise.all([shell.contextOf(request, reply, session), hasAdministrator()])
        return <SetupPage context={context} signedInAs={session?.email ?? null} administered={administered} linkRefusedError={SETUP_LINK_REFUSED} />
      }
    }
  ]
}
