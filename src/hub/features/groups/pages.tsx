import { Type } from 'typebox'
import type { FeaturesDeclared } from '../../kernel/feature.js'
import { CSRF_FORM_FIELD } from '../../kernel/pipeline/csrf.js'
import { ConsoleLayout, type ConsoleSection } from '../../kernel/pages/console.js'
import { ColumnHeadings, type PageContext, Timestamp } from '../../kernel/pages/layout.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { GROUPS_ERRORS, GROUPS_NOTICES, type GroupsError, type GroupsNotice, groupsTranslator } from './messages.js'
import { GROUP_DESCRIPTION_MAX_LENGTH, GROUP_NAME_MAX_LENGTH, type GroupDetail, type GroupSummary, type Groups } from './service.js'

/** The console's groups: every group and a form for a new one, and a group's page with its people. */
export const GROUPS_PATH = '/admin/groups'

export const groupPath = (id: string) => `${GROUPS_PATH}/${encodeURIComponent(id)}`

// A page answers a page: an unknown key is no message.
const OutcomeQuery = Type.Object({ notice: Type.Optional(Type.Unknown()), error: Type.Optional(Type.Unknown()) })

function outcomeOf(query: unknown): { notice: GroupsNotice | undefined; error: GroupsError | undefined } {
  const { notice, error } = (query ?? {}) as { notice?: unknown; error?: unknown }
  return {
    notice: GROUPS_NOTICES.find((known) => known === notice),
    error: GROUPS_ERRORS.find((known) => known === error)
  }
}

export function groupsPages(groups: Groups, declared: FeaturesDeclared): HubPage[] {
  return [
    {
      path: GROUPS_PATH,
      signedIn: true,
      administrators: true,
      querystring: OutcomeQuery,
      async render({ request, reply, session, shell }) {
        const context = await shell.contextOf(request, reply, session)
        return <GroupsPage context={context} sections={declared.consoleSections} groups={await groups.list()} csrf={reply.formCsrfToken()} {...outcomeOf(request.query)} />
      }
    },
    {
      path: `${GROUPS_PATH}/:groupId`,
      signedIn: true,
      administrators: true,
      querystring: OutcomeQuery,
      async render({ request, reply, session, shell }) {
        const { groupId } = request.params as { groupId: string }
        const group = await groups.find(groupId)
        if (!group) {
          reply.callNotFound()
          return reply
        }
        const context = await shell.contextOf(request, reply, session)
        return <GroupPage context={context} sections={declared.consoleSections} group={group} csrf={reply.formCsrfToken()} {...outcomeOf(request.query)} />
      }
    }
  ]
}

interface ConsolePageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
  csrf: string
  notice: GroupsNotice | undefined
  error: GroupsError | undefined
}

function Csrf({ value }: { value: string }) {
  return <input type="hidden" name={CSRF_FORM_FIELD} value={value} />
}

/** The refusal of the last form, in the page's words. */
function Refusal({ context, error }: { context: PageContext; error: GroupsError | undefined }) {
  if (error === undefined) return null
  return (
    <p class="form-message" role="alert" data-outcome="error">
      {groupsTranslator(context.language)(`groups.error.${error}`)}
    </p>
  )
}

function GroupFields({ context, group }: { context: PageContext; group?: GroupSummary }) {
  const t = groupsTranslator(context.language)
  const idPrefix = group ? 'edit' : 'new'
  return (
    <>
      <label for={`${idPrefix}-group-name`}>{t('groups.name')}</label>
      <input id={`${idPrefix}-group-name`} name="name" type="text" required maxLength={GROUP_NAME_MAX_LENGTH} value={group?.name} aria-describedby={`${idPrefix}-group-name-hint`} autocomplete="off" />
      <p class="hint" id={`${idPrefix}-group-name-hint`}>
        {t('groups.nameHint')}
      </p>
      <label for={`${idPrefix}-group-description`}>{t('groups.description')}</label>
      <input id={`${idPrefix}-group-description`} name="description" type="text" maxLength={GROUP_DESCRIPTION_MAX_LENGTH} value={group?.description} autocomplete="off" />
    </>
  )
}

function GroupsPage({ context, sections, groups, csrf, notice, error }: ConsolePageProps & { groups: GroupSummary[] }) {
  const t = groupsTranslator(context.language)
  return (
    <ConsoleLayout context={context} title={t('groups.title')} sections={sections} notice={notice && t(`groups.notice.${notice}`)}>
      <p>{t('groups.intro')}</p>
      <Refusal context={context} error={error} />
      <section aria-labelledby="groups-list-heading">
        <h2 id="groups-list-heading">{t('groups.list')}</h2>
        {groups.length === 0 ? (
          <p>{t('groups.none')}</p>
        ) : (
          <table>
            <ColumnHeadings labels={[t('groups.name'), t('groups.description'), t('groups.members')]} />
            <tbody>
              {groups.map((group) => (
                <tr>
                  <td data-label={t('groups.name')}>
                    <a href={groupPath(group.id)}>{group.name}</a>
                  </td>
                  <td data-label={t('groups.description')}>{group.description}</td>
                  <td data-label={t('groups.members')}>{group.members}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="group-new-heading">
        <h2 id="group-new-heading">{t('groups.create')}</h2>
        <form method="post" action={GROUPS_PATH} class="stacked-form">
          <Csrf value={csrf} />
          <GroupFields context={context} />
          <button type="submit">{t('groups.createSubmit')}</button>
        </form>
      </section>
    </ConsoleLayout>
  )
}

function GroupPage({ context, sections, group, csrf, notice, error }: ConsolePageProps & { group: GroupDetail }) {
  const t = groupsTranslator(context.language)
  const path = groupPath(group.id)
  return (
    <ConsoleLayout context={context} title={group.name} sections={sections} notice={notice && t(`groups.notice.${notice}`)}>
      <p>
        <a href={GROUPS_PATH}>{t('groups.back')}</a>
      </p>
      <Refusal context={context} error={error} />
      <section aria-labelledby="group-people-heading">
        <h2 id="group-people-heading">{t('groups.people', { group: group.name })}</h2>
        {group.accounts.length === 0 ? (
          <p>{t('groups.nobody')}</p>
        ) : (
          <table>
            <ColumnHeadings labels={[t('groups.email'), t('groups.displayName'), t('groups.addedAt'), '']} />
            <tbody>
              {group.accounts.map((account) => (
                <tr>
                  <td data-label={t('groups.email')}>{account.email}</td>
                  <td data-label={t('groups.displayName')}>{account.displayName ?? ''}</td>
                  <td data-label={t('groups.addedAt')}>
                    <Timestamp iso={account.addedAt} language={context.language} />
                  </td>
                  <td>
                    <form method="post" action={`${path}/members/${encodeURIComponent(account.userId)}/remove`}>
                      <Csrf value={csrf} />
                      <button type="submit" class="secondary-button">
                        {t('groups.remove')} <span class="visually-hidden">{t('groups.removeDetail', { email: account.email, group: group.name })}</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h3>{t('groups.add')}</h3>
        <form method="post" action={`${path}/members`} class="stacked-form">
          <Csrf value={csrf} />
          <label for="member-email">{t('groups.email')}</label>
          <input id="member-email" name="email" type="email" required autocomplete="off" />
          <button type="submit">{t('groups.addSubmit')}</button>
        </form>
      </section>
      <section aria-labelledby="group-edit-heading">
        <h2 id="group-edit-heading">{t('groups.edit')}</h2>
        <form method="post" action={path} class="stacked-form">
          <Csrf value={csrf} />
          <GroupFields context={context} group={group} />
          <button type="submit">{t('groups.save')}</button>
        </form>
      </section>
      <section aria-labelledby="group-delete-heading">
        <h2 id="group-delete-heading">{t('groups.delete')}</h2>
        <form method="post" action={`${path}/delete`} class="stacked-form">
          <Csrf value={csrf} />
          <label class="choice">
            <input type="checkbox" name="confirm" value="yes" required /> {t('groups.deleteConfirm', { group: group.name })}
          </label>
          <button type="submit" class="danger-button">
            {t('groups.deleteSubmit')}
          </button>
        </form>
      </section>
    </ConsoleLayout>
  )
}

/** The console's navigation entry. */
export const groupsSection: ConsoleSection = { path: GROUPS_PATH, label: (language) => groupsTranslator(language)('groups.section') }
