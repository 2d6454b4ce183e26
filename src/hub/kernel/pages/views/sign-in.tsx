import { CHALLENGE_INVALID } from '../../../features/two-step/second-factor-route.js'
import type { Translate } from '../i18n/index.js'
import { FormMessage, Layout, type PageContext } from '../layout.js'
import { MailOutboxNote } from './mail-outbox-note.js'
import { NewPasswordInput, PasswordHint } from './passwords.js'

interface CredentialsPageProps {
  context: PageContext
  /** Where to go after signing in; already checked to be a path on this site. */
  next: string | undefined
  /** The command that reads DATA_DIR/outbox when the hub writes its mail there (no HUB_SMTP_URL); undefined when it sends it. */
  mailOutbox: string | undefined
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

export function LoginPage(props: CredentialsPageProps & { notice: LoginNotice | undefined }) {
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
          <SecondStepForms t={t} next={props.next} />
          <PasskeySignInForm t={t} next={props.next} />
          <p>
            <a href="/forgot-password">{t('login.forgotPassword')}</a>
          </p>
        </>
      )}
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
      {/* A new account is sent a link to confirm its address. */}
      <MailOutboxNote t={t} command={props.mailOutbox} />
      <CredentialsForm {...props} kind="signup" />
      <p>
        {t('signup.haveAccount')} <a href={withNext('/login', props.next)}>{t('signup.signInLink')}</a>
      </p>
    </Layout>
  )
}

/**
 * The second step, when the password step answers that the account asks for a code: templates the
 * script puts in the password form's place, a code from the app or, instead, a recovery code.
 */
function SecondStepForms({ t, next }: { t: Translate; next: string | undefined }) {
  const kinds = [
    { kind: 'code', field: 'code', label: t('secondStep.code'), intro: t('secondStep.intro'), other: t('secondStep.useRecoveryCode'), wrong: t('secondStep.wrongCode') },
    { kind: 'recovery-code', field: 'recoveryCode', label: t('secondStep.recoveryCode'), intro: t('secondStep.recoveryIntro'), other: t('secondStep.useCode'), wrong: t('secondStep.wrongRecoveryCode') }
  ] as const
  return (
    <>
      {kinds.map(({ kind, field, label, intro, other, wrong }) => (
        <template data-second-step={kind}>
          <form
            class="stacked-form"
            data-form="second-factor"
            aria-labelledby="second-step-heading"
            data-expired-error={CHALLENGE_INVALID}
            data-msg-expired={t('secondStep.expired')}
            data-msg-invalid-credentials={wrong}
          >
            <h2 id="second-step-heading">{t('secondStep.heading')}</h2>
            <p>{intro}</p>
            {next !== undefined && <input type="hidden" name="next" value={next} />}
            <label for="second-step-field">{label}</label>
            <input
              id="second-step-field"
              name={field}
              type="text"
              required
              autofocus
              autocomplete={kind === 'code' ? 'one-time-code' : 'off'}
              inputmode={kind === 'code' ? 'numeric' : undefined}
              spellcheck={false}
            />
            <button type="submit">{t('secondStep.submit')}</button>
            <button type="button" class="link-button" data-action="second-step-switch" data-to={kind === 'code' ? 'recovery-code' : 'code'}>
              {other}
            </button>
            <FormMessage />
          </form>
        </template>
      ))}
    </>
  )
}

/** A discoverable passkey: no address asked for, the browser offers the ones it holds for the hub. */
function PasskeySignInForm({ t, next }: { t: Translate; next: string | undefined }) {
  return (
    <form
      class="stacked-form"
      data-form="passkey-sign-in"
      data-needs-webauthn
      aria-label={t('login.passkey')}
      data-msg-invalid-credentials={t('login.passkeyRefused')}
      data-msg-passkey-cancelled={t('passkeys.cancelled')}
    >
      {next !== undefined && <input type="hidden" name="next" value={next} />}
      <p>{t('login.passkeyIntro')}</p>
      <button type="submit" class="secondary-button">
        {t('login.passkey')}
      </button>
      <FormMessage />
    </form>
  )
}
