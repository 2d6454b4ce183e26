import type { SignupMode } from '../../../../shared/config.js'
import { FormMessage, Layout, type PageContext } from '../layout.js'
import type { SignInMethodPages } from '../shell.js'
import { MailOutboxNote } from './mail-outbox-note.js'
import { NewPasswordInput, PasswordHint } from './passwords.js'

interface CredentialsPageProps {
  context: PageContext
  /** Where to go after signing in; already checked to be a path on this site. */
  next: string | undefined
  /** The command that reads DATA_DIR/outbox when the hub writes its mail there (no HUB_SMTP_URL); undefined when it sends it. */
  mailOutbox: string | undefined
  /** HUB_SIGNUP: the sign-up form is offered only where anyone may make an account. */
  signup: SignupMode
}

/** Email and password, posted as JSON by the client script to the API named by `data-form`. */
function CredentialsForm({ context: { t }, next, kind }: CredentialsPageProps & { kind: 'login' | 'signup' }) {
  const newAccount = kind === 'signup'
  return (
    <form class="stacked-form" data-form={kind}>
      {next !== undefined && <input type="hidden" name="next" value={next} />}
      <label for="email">{t('form.email')}</label>
      <input id="email" name="email" type="email" autocomplete="username" required />
      <label for="password">{t('form.password')}</label>
      {newAccount ? <NewPasswordInput id="password" name="password" /> : <input id="password" name="password" type="password" autocomplete="current-password" required />}
      {newAccount && <PasswordHint t={t} />}
      <button type="submit">{newAccount ? t('signup.submit') : t('login.submit')}</button>
      <FormMessage />
    </form>
  )
}

/** A link to the other credentials page that keeps the same destination. */
function withNext(path: string, next: string | undefined): string {
  return next === undefined ? path : `${path}?${new URLSearchParams({ next }).toString()}`
}

/** Notes the login page shows when another page sends the person here, named in its query. */
export const LOGIN_NOTICES = {
  'password-reset': 'login.passwordReset',
  // A reset that first proved the address, and removed what was added to the account before it.
  'password-reset-first-proof': 'login.passwordResetFirstProof',
  'account-deleted': 'login.accountDeleted'
} as const
export type LoginNotice = keyof typeof LOGIN_NOTICES

export interface LoginPageProps extends CredentialsPageProps {
  notice: LoginNotice | undefined
  /** The ways of signing in the features add beside the password, whose forms follow the password form. */
  signInMethods: readonly SignInMethodPages[]
}

export function LoginPage(props: LoginPageProps) {
  const { t, accountPages } = props.context
  return (
    <Layout context={props.context} title={t('login.title')}>
      {props.notice ? (
        <p class="notice" role="status">
          {t(LOGIN_NOTICES[props.notice])}
        </p>
      ) : (
        <p>{t('login.intro')}</p>
      )}
      {props.notice === 'account-deleted' && <MailOutboxNote t={t} command={props.mailOutbox} />}
      <CredentialsForm {...props} kind="login" />
      {accountPages && (
        <>
          {props.signInMethods.map((method) => method.loginForms(props.context.language, props.next))}
          <p>
            <a href="/forgot-password">{t('login.forgotPassword')}</a>
          </p>
        </>
      )}
      {props.signup === 'open' && (
        <p>
          {t('login.noAccount')} <a href={withNext('/signup', props.next)}>{t('login.signUpLink')}</a>
        </p>
      )}
    </Layout>
  )
}

export function SignupPage(props: CredentialsPageProps) {
  const { t } = props.context
  return (
    <Layout context={props.context} title={t('signup.title')}>
      {props.signup === 'open' ? (
        <>
          {/* A new account is sent a link to confirm its address. */}
          <MailOutboxNote t={t} command={props.mailOutbox} />
          <CredentialsForm {...props} kind="signup" />
        </>
      ) : (
        // An invited person comes through their invitation's link (/invite), not this page.
        <p class="notice">{props.signup === 'invite' ? t('signup.byInvitation') : t('refusal.signupClosed')}</p>
      )}
      <p>
        {t('signup.haveAccount')} <a href={withNext('/login', props.next)}>{t('signup.signInLink')}</a>
      </p>
    </Layout>
  )
}
