import type { ConsoleSection } from '../../../kernel/pages/console.js'
import { ConsoleLayout } from '../../../kernel/pages/console.js'
import { ColumnHeadings, type PageContext, Timestamp } from '../../../kernel/pages/layout.js'
import type { ListedUser, UsersPage as UsersList } from '../directory.js'
import { type UsersError, type UsersNotice, type UsersTranslate, usersTranslator } from '../messages.js'

/** Where the Users section lives, and one account's page. */
export const USERS_CONSOLE_PATH = '/admin/users'
export const userConsolePath = (userId: string) => `${USERS_CONSOLE_PATH}/${encodeURIComponent(userId)}`
/** The groups engineer's page, where invitations are sent. */
export const INVITATIONS_CONSOLE_PATH = '/admin/invitations'

export interface UsersListPageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
  list: UsersList
  /** The search as typed, or empty. */
  query: string
  /** Whether this page is past the first. */
  later: boolean
  /** The signed-in administrator, marked "(you)". */
  selfId: string
  notice: UsersNotice | undefined
  error: UsersError | undefined
}

const roleLabel = (t: UsersTranslate, user: ListedUser) => t(user.role === 'admin' ? 'users.role.admin' : 'users.role.member')
const statusLabel = (t: UsersTranslate, user: ListedUser) => t(user.disabled ? 'users.disabled' : 'users.active')

/** The Users section: a search, the accounts a page at a time (cards on a phone), each leading to its own page. */
export function UsersListPage({ context, sections, list, query, later, selfId, notice, error }: UsersListPageProps) {
  const { language } = context
  const t = usersTranslator(language)
  const headings = [t('users.person'), t('users.role'), t('users.status'), t('users.signInMethods'), t('users.lastSignIn'), t('users.groups')]
  const search = query === '' ? '' : `query=${encodeURIComponent(query)}&`
  return (
    <ConsoleLayout context={context} title={t('users.title')} sections={sections} notice={notice && t(`users.notice.${notice}`)}>
      <ErrorLine t={t} error={error} />
      <p>{t('users.intro')}</p>
      <p>
        <a href={INVITATIONS_CONSOLE_PATH}>{t('users.invite')}</a>
      </p>
      <form method="get" action={USERS_CONSOLE_PATH} role="search" class="inline-form">
        <label for="users-query">{t('users.search')}</label>
        <input id="users-query" type="text" name="query" value={query} maxLength={200} autocomplete="off" />
        <button type="submit">{t('users.searchButton')}</button>
        {query !== '' && <a href={USERS_CONSOLE_PATH}>{t('users.showAll')}</a>}
      </form>
      {list.users.length === 0 ? (
        <p>{query === '' ? t('users.none') : t('users.noMatch', { query })}</p>
      ) : (
        <table class="user-list">
          <ColumnHeadings labels={headings} />
          <tbody>
            {list.users.map((user) => (
              <tr>
                <td data-label={headings[0]}>
                  <a href={userConsolePath(user.userId)}>{user.email}</a>
                  {user.userId === selfId && ` ${t('users.you')}`}
                  {user.displayName !== null && <div>{user.displayName}</div>}
                </td>
                <td data-label={headings[1]}>{roleLabel(t, user)}</td>
                <td data-label={headings[2]}>{statusLabel(t, user)}</td>
                <td data-label={headings[3]}>
                  {t(user.twoStep ? 'users.twoStepOn' : 'users.twoStepOff')}
                  {user.passkeys > 0 && ` · ${t('users.passkeys', { count: user.passkeys })}`}
                </td>
                <td data-label={headings[4]}>{user.lastSignInAt === null ? t('users.never') : <Timestamp iso={user.lastSignInAt} language={language} />}</td>
                <td data-label={headings[5]}>{user.groups.length === 0 ? t('users.noGroups') : user.groups.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(later || list.nextCursor !== null) && (
        <p class="button-row">
          {later && <a href={query === '' ? USERS_CONSOLE_PATH : `${USERS_CONSOLE_PATH}?query=${encodeURIComponent(query)}`}>{t('users.first')}</a>}
          {list.nextCursor !== null && (
            <a href={`${USERS_CONSOLE_PATH}?${search}cursor=${encodeURIComponent(list.nextCursor)}`} rel="next">
              {t('users.more')}
            </a>
          )}
        </p>
      )}
    </ConsoleLayout>
  )
}

export interface UserPageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
  user: ListedUser
  /** The value each form's `_csrf` field carries. */
  csrfToken: string
  selfId: string
  notice: UsersNotice | undefined
  error: UsersError | undefined
}

/** One account: what the console knows of it, and a plain form for each change (no script needed). */
export function UserPage({ context, sections, user, csrfToken, selfId, notice, error }: UserPageProps) {
  const { language } = context
  const t = usersTranslator(language)
  const action = (what: string) => `${userConsolePath(user.userId)}/${what}`
  const Csrf = () => <input type="hidden" name="_csrf" value={csrfToken} />
  return (
    <ConsoleLayout context={context} title={user.userId === selfId ? `${user.email} ${t('users.you')}` : user.email} sections={sections} notice={notice && t(`users.notice.${notice}`)}>
      <p>
        <a href={USERS_CONSOLE_PATH}>{t('user.back')}</a>
      </p>
      <ErrorLine t={t} error={error} />
      <dl class="billing-summary">
        <dt>{t('user.name')}</dt>
        <dd>{user.displayName ?? t('user.noName')}</dd>
        <dt>{t('user.address')}</dt>
        <dd>
          {user.email} ({t(user.emailVerified ? 'user.verified' : 'user.unverified')})
        </dd>
        <dt>{t('users.role')}</dt>
        <dd>{roleLabel(t, user)}</dd>
        <dt>{t('users.status')}</dt>
        <dd>{statusLabel(t, user)}</dd>
        <dt>{t('user.created')}</dt>
        <dd>
          <Timestamp iso={user.createdAt} language={language} />
        </dd>
        <dt>{t('users.lastSignIn')}</dt>
        <dd>{user.lastSignInAt === null ? t('users.never') : <Timestamp iso={user.lastSignInAt} language={language} />}</dd>
        <dt>{t('user.twoStep')}</dt>
        <dd>{t(user.twoStep ? 'user.on' : 'user.off')}</dd>
        <dt>{t('user.passkeys')}</dt>
        <dd>{user.passkeys}</dd>
        <dt>{t('users.groups')}</dt>
        <dd>{user.groups.length === 0 ? t('users.noGroups') : user.groups.join(', ')}</dd>
      </dl>

      <section class="panel" aria-labelledby="role-heading">
        <h2 id="role-heading">{t('user.roleHeading')}</h2>
        <p>{t(user.role === 'admin' ? 'user.roleAdmin' : 'user.roleMember')}</p>
        <form method="post" action={action('role')}>
          <Csrf />
          <input type="hidden" name="role" value={user.role === 'admin' ? 'member' : 'admin'} />
          <button type="submit" class="secondary-button">
            {t(user.role === 'admin' ? 'user.makeMember' : 'user.makeAdmin')}
          </button>
        </form>
      </section>

      <section class="panel" aria-labelledby="access-heading">
        <h2 id="access-heading">{t('user.accessHeading')}</h2>
        <p>{t('user.disableHint')}</p>
        <form method="post" action={action('status')}>
          <Csrf />
          <input type="hidden" name="disabled" value={user.disabled ? 'false' : 'true'} />
          <button type="submit" class={user.disabled ? 'secondary-button' : 'danger-button'}>
            {t(user.disabled ? 'user.enable' : 'user.disable')}
          </button>
        </form>
      </section>

      <section class="panel" aria-labelledby="sign-out-heading">
        <h2 id="sign-out-heading">{t('user.signOutHeading')}</h2>
        <p>{t('user.signOutHint')}</p>
        <form method="post" action={action('sign-out')}>
          <Csrf />
          <button type="submit" class="secondary-button">
            {t('user.signOut')}
          </button>
        </form>
      </section>

      <section class="panel" aria-labelledby="two-step-heading">
        <h2 id="two-step-heading">{t('user.twoStepHeading')}</h2>
        {user.twoStep ? (
          <>
            <p>{t('user.twoStepHint')}</p>
            <form method="post" action={action('two-step')}>
              <Csrf />
              <button type="submit" class="danger-button">
                {t('user.twoStepReset')}
              </button>
            </form>
          </>
        ) : (
          <p>{t('user.twoStepIsOff')}</p>
        )}
      </section>

      <section class="panel" aria-labelledby="name-heading">
        <h2 id="name-heading">{t('user.nameHeading')}</h2>
        <form method="post" action={action('name')} class="stacked-form">
          <Csrf />
          <label for="user-display-name">{t('user.name')}</label>
          <input id="user-display-name" type="text" name="displayName" value={user.displayName ?? ''} required maxLength={256} autocomplete="off" />
          <button type="submit">{t('user.nameSave')}</button>
        </form>
      </section>

      <section class="panel" aria-labelledby="delete-heading">
        <h2 id="delete-heading">{t('user.deleteHeading')}</h2>
        <p>{t('user.deleteHint')}</p>
        <form method="post" action={action('delete')} class="stacked-form">
          <Csrf />
          <label class="choice">
            <input type="checkbox" name="confirm" value="yes" required />
            {t('user.deleteConfirm')}
          </label>
          <button type="submit" class="danger-button">
            {t('user.delete')}
          </button>
        </form>
      </section>
    </ConsoleLayout>
  )
}

function ErrorLine({ t, error }: { t: UsersTranslate; error: UsersError | undefined }) {
  if (error === undefined) return null
  return (
    <p class="form-message" role="alert">
      {t(`users.error.${error}`)}
    </p>
  )
}
