import { FormMessage, type PageContext } from '../../kernel/pages/layout.js'
import type { SignInMethodPages } from '../../kernel/pages/shell.js'
import { ConfirmAddressFirst } from '../../kernel/pages/views/confirm-address-first.js'
import type { TwoStepRepository } from './repository.js'
import { CHALLENGE_INVALID } from './second-factor-route.js'
import { WRONG_CODE } from './two-step.js'
import { type TwoStepTranslate, twoStepTranslator } from './messages.js'

export interface TwoStepState {
  on: boolean
  recoveryCodesLeft: number
}

/**
 * Two-step sign-in on the pages: the login page's second step, the security page's section and,
 * when it is on, the recent-sign-in dialog's code (the API then refuses the password alone). A
 * pending set-up is not on: sign-in does not ask for its codes.
 */
export function twoStepSignInPages(twoStep: Pick<TwoStepRepository, 'credentialOf' | 'recoveryCodesLeft'>): SignInMethodPages {
  return {
    loginForms: (language, next) => <SecondStepForms t={twoStepTranslator(language)} next={next} />,
    stateOf: async (userId) => {
      const [credential, recoveryCodesLeft] = await Promise.all([twoStep.credentialOf(userId), twoStep.recoveryCodesLeft(userId)])
      const state: TwoStepState = { on: credential?.confirmedAt != null, recoveryCodesLeft }
      return {
        section: (context, addressVerified) => <TwoStepSection context={context} state={state} addressVerified={addressVerified} />,
        recentSignIn: state.on ? { form: (language) => <ReauthenticateWithCode t={twoStepTranslator(language)} />, replacesPassword: true } : undefined
      }
    }
  }
}

/**
 * The second step, when the password step answers that the account asks for a code: templates the
 * script puts in the password form's place, a code from the app or, instead, a recovery code.
 */
function SecondStepForms({ t, next }: { t: TwoStepTranslate; next: string | undefined }) {
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

/** The recent-sign-in dialog's form with two-step sign-in on: a code of the app, never the password alone. */
function ReauthenticateWithCode({ t }: { t: TwoStepTranslate }) {
  return (
    <form class="stacked-form" data-form="reauthenticate-code" data-refusal={WRONG_CODE} data-msg-invalid-credentials={t('secondStep.wrongCode')}>
      <label for="reauth-code">{t('reauth.code')}</label>
      <input id="reauth-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus />
      <button type="submit">{t('reauth.confirmCode')}</button>
      <FormMessage />
    </form>
  )
}

/**
 * The set-up and the recovery codes are templates the script fills in: the secret and the codes
 * come from the API once, and are never part of a page the server renders or a browser caches.
 * The state (`data-two-step-state`) is one block the script replaces once the set-up is confirmed,
 * so the section never says both "off" and "on".
 */
function TwoStepSection({ context: { language }, state, addressVerified }: { context: PageContext; state: TwoStepState; addressVerified: boolean }) {
  const t = twoStepTranslator(language)
  return (
    <section
      aria-labelledby="two-step-heading"
      data-two-step={state.on ? 'on' : 'off'}
      data-msg-enabled={t('totp.enabled')}
      data-msg-on={t('totp.on')}
      data-msg-email-taken={t('totp.changedElsewhere')}
    >
      <h2 id="two-step-heading">{t('totp.heading')}</h2>
      {state.on ? (
        <div data-two-step-state>
          <p>{t('totp.on')}</p>
          <p>{t('totp.codesLeft', { count: state.recoveryCodesLeft })}</p>
          <p class="button-row">
            <button type="button" data-action="recovery-codes-regenerate">
              {t('totp.regenerate')}
            </button>
            <button type="button" class="secondary-button" data-action="totp-disable">
              {t('totp.disable')}
            </button>
          </p>
        </div>
      ) : (
        <div data-two-step-state>
          <p>{t('totp.off')}</p>
          {addressVerified ? (
            <p>
              <button type="button" data-action="totp-begin">
                {t('totp.begin')}
              </button>
            </p>
          ) : (
            <ConfirmAddressFirst t={t} />
          )}
        </div>
      )}
      <FormMessage />
      <template data-totp-setup>
        <div class="panel" tabIndex={-1}>
          <h3 id="totp-setup-heading">{t('totp.scanHeading')}</h3>
          <img class="totp-qr" data-totp-qr alt={t('totp.qrAlt')} width="200" height="200" />
          <p>
            {t('totp.manualEntry')} <code class="secret" data-totp-secret />
          </p>
          <form class="stacked-form" data-form="totp-confirm" aria-labelledby="totp-setup-heading" data-msg-wrong-code={t('totp.wrongCode')}>
            <label for="totp-code">{t('totp.code')}</label>
            <input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required aria-describedby="totp-code-hint" />
            <p id="totp-code-hint" class="hint">
              {t('totp.codeHint')}
            </p>
            <button type="submit">{t('totp.confirm')}</button>
            <FormMessage />
          </form>
        </div>
      </template>
      <template data-recovery-codes>
        <div class="panel" tabIndex={-1} aria-labelledby="recovery-codes-heading" role="region">
          <h3 id="recovery-codes-heading">{t('recovery.heading')}</h3>
          <p>{t('recovery.intro')}</p>
          <ol class="recovery-code-list" data-recovery-code-list />
          <p class="hint">{t('recovery.copyHint')}</p>
          <p class="button-row">
            <button type="button" data-action="download-recovery-codes" data-file-heading={t('recovery.fileHeading')}>
              {t('recovery.download')}
            </button>
            <a href="/account/security">{t('recovery.done')}</a>
          </p>
        </div>
      </template>
    </section>
  )
}

