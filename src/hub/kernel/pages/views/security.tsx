import type { ListedPasskey } from '../../../features/passkeys/repository.js'
import type { AccountSession } from '../../sessions/account-sessions.js'
import { ColumnHeadings, FormMessage, Layout, type PageContext, Timestamp } from '../layout.js'
import { AccountDeletionSection } from './account-deletion.js'
import { RecentSignInDialog } from './recent-sign-in-dialog.js'
import { SessionsTable } from './sessions-table.js'

export interface TwoStepState {
  on: boolean
  recoveryCodesLeft: number
}

/** What the built-in provider adds to the page: absent under an external provider, which owns how its people sign in. */
export interface OwnSignInSettings {
  twoStep: TwoStepState
  passkeys: ListedPasskey[]
  /**
   * Whether a mailed link proved the account's address: until then nothing can be added to sign in
   * with (docs/account.md, "Account pre-hijacking"), and the page says so instead of offering it.
   */
  addressVerified: boolean
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
          <TwoStepSection context={context} state={signIn.twoStep} addressVerified={signIn.addressVerified} />
          <PasskeysSection context={context} passkeys={signIn.passkeys} addressVerified={signIn.addressVerified} />
          <RecentSignInDialog t={t} methods={{ code: signIn.twoStep.on, passkey: signIn.passkeys.length > 0 }} email={email} />
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

/**
 * The set-up and the recovery codes are templates the script fills in: the secret and the codes
 * come from the API once, and are never part of a page the server renders or a browser caches.
 * The state (`data-two-step-state`) is one block the script replaces once the set-up is confirmed,
 * so the section never says both "off" and "on".
 */
function TwoStepSection({ context: { t }, state, addressVerified }: { context: PageContext; state: TwoStepState; addressVerified: boolean }) {
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

/** Each passkey renames in its own row; the section's message line serves the rows' buttons. */
function PasskeysSection({ context: { t, language }, passkeys, addressVerified }: { context: PageContext; passkeys: ListedPasskey[]; addressVerified: boolean }) {
  return (
    <section aria-labelledby="passkeys-heading" data-msg-passkey-cancelled={t('passkeys.cancelled')} data-msg-email-taken={t('passkeys.taken')}>
      <h2 id="passkeys-heading">{t('passkeys.heading')}</h2>
      <p>{t('passkeys.intro')}</p>
      <FormMessage />
      {passkeys.length === 0 ? (
        <p>{t('passkeys.none')}</p>
      ) : (
        <table>
          <ColumnHeadings labels={[t('passkeys.name'), t('passkeys.created'), t('passkeys.lastUsed'), '']} />
          <tbody>
            {passkeys.map((passkey) => (
              <tr>
                <td>
                  <form class="inline-form" data-form="passkey-rename" data-passkey-id={passkey.id}>
                    <label class="visually-hidden" for={`passkey-name-${passkey.id}`}>
                      {t('passkeys.renameLabel', { name: passkey.name })}
                    </label>
                    <input id={`passkey-name-${passkey.id}`} name="name" type="text" value={passkey.name} required maxLength={64} autocomplete="off" />
                    <button type="submit" class="secondary-button">
                      {t('passkeys.rename')} <span class="visually-hidden">{t('passkeys.detail', { name: passkey.name })}</span>
                    </button>
                    <FormMessage />
                  </form>
                </td>
                <td data-label={t('passkeys.created')}>
                  <Timestamp iso={passkey.createdAt} language={language} />
                </td>
                <td data-label={t('passkeys.lastUsed')}>{passkey.lastUsedAt ? <Timestamp iso={passkey.lastUsedAt} language={language} /> : t('passkeys.neverUsed')}</td>
                <td>
                  <button type="button" class="secondary-button" data-action="passkey-remove" data-passkey-id={passkey.id}>
                    {t('passkeys.remove')} <span class="visually-hidden">{t('passkeys.detail', { name: passkey.name })}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 id="add-passkey-heading">{t('passkeys.add')}</h3>
      {addressVerified ? (
        <>
          <p class="hint" data-webauthn-unsupported hidden>
            {t('passkeys.unsupported')}
          </p>
          <form class="stacked-form" data-form="passkey-add" data-needs-webauthn aria-labelledby="add-passkey-heading">
            <label for="passkey-name">{t('passkeys.newName')}</label>
            <input id="passkey-name" name="name" type="text" maxLength={64} autocomplete="off" aria-describedby="passkey-name-hint" />
            <p id="passkey-name-hint" class="hint">
              {t('passkeys.newNameHint')}
            </p>
            <button type="submit">{t('passkeys.addSubmit')}</button>
            <FormMessage />
          </form>
        </>
      ) : (
        <ConfirmAddressFirst t={t} />
      )}
    </section>
  )
}

/** In place of a way to add a sign-in method while the address is unproven: what to do first, and where. */
function ConfirmAddressFirst({ t }: { t: PageContext['t'] }) {
  return (
    <p data-confirm-address-first>
      {t('security.confirmAddressFirst')} <a href="/account">{t('security.confirmAddressLink')}</a>
    </p>
  )
}
