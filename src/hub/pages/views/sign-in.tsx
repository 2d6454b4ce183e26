import { FormMessage, Layout, type PageContext } from '../layout.js'

interface CredentialsPageProps {
  context: PageContext
  /** Where to go after signing in; already checked to be a path on this site. */
  next: string | undefined
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

export function LoginPage(props: CredentialsPageProps) {
  const { t } = props.context
  return (
    <Layout context={props.context} title={t('login.title')}>
      <p>{t('login.intro')}</p>
      <CredentialsForm {...props} kind="login" />
      <p>
        {t('login.noAccount')} <a href={withNext('/signup', props.next)}>{t('login.signUpLink')}</a>
      </p>
    </Layout>
  )
}

export function SignupPage(props: CredentialsPageProps) {
  const { t } = props.context
  return (
    <Layout context={props.context} title={t('signup.title')}>
      <CredentialsForm {...props} kind="signup" />
      <p>
        {t('signup.haveAccount')} <a href={withNext('/login', props.next)}>{t('signup.signInLink')}</a>
      </p>
    </Layout>
  )
}
