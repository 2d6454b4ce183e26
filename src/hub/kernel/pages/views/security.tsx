import type { AccountSession } from '../../sessions/account-sessions.js'
import { Layout, type PageContext } from '../layout.js'
import type { SignInMethodState } from '../shell.js'
import { AccountDeletionSection } from './account-deletion.js'
import { RecentSignInDialog } from './recent-sign-in-dialog.js'
import { SessionsTable } from './sessions-table.js'

/** What the built-in provider adds to the page: absent under an external provider, which owns how its people sign in. */
export interface OwnSignInSettings {
  /** The sign-in methods the features add (two-step sign-in, passkeys), as read for the person. */
  methods: readonly SignInMethodState[]
  /** The API's 401 text for a wrong current password, for the recent-sign-in dialog. */
  wrongPasswordError: string
  /**
   * Whether a mailed link proved the account's address: until then nothing can be added to sign in
   * with (docs/account.md, "Account pre-hijacking"), and the page says so instead of offering it.
   */
  addressVerified: boolean
  /** False for an account made with a passkey and no password yet: the dialog offers no password then. */
  hasPassword: boolean
}

export interface SecurityPageProps {
  context: PageContext
  sessions: AccountSession[]
  signIn: OwnSignInSettings | undefined
  /** The account's address, for password managers in the recent-sign-in dialog's password form. */
  email: string
}

/**
 * Sessions, and with the built-in provider two-step sign-in and passkeys. Under an external
 * provider, whose people have no account page, this page also offers to delete the account.
 */
export function SecurityPage({ context, sessions, signIn, email }: SecurityPageProps) {
  const { t } = context
  return (
    <Layout context={context} title={t('security.title')}>
      <p>{t('security.intro')}</p>
      <SessionsTable context={context} sessions={sessions} />
      {signIn ? (
        <>
          {signIn.methods.map((method) => method.section(context, signIn.addressVerified))}
          <RecentSignInDialog context={context} methods={signIn.methods} wrongPasswordError={signIn.wrongPasswordError} email={email} hasPassword={signIn.hasPassword} />
        </>
      ) : (
        <>
          <p>{t('security.externalProvider')}</p>
          <AccountDeletionSection context={context} wrongPasswordError={undefined} email={undefined} />
        </>
      )}
    </Layout>
  )
}
