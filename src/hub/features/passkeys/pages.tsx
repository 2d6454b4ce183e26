import { ColumnHeadings, FormMessage, type PageContext, Timestamp } from '../../kernel/pages/layout.js'
import type { SignInMethodPages } from '../../kernel/pages/shell.js'
import { ConfirmAddressFirst } from '../../kernel/pages/views/confirm-address-first.js'
import type { ListedPasskey, PasskeyRepository } from './repository.js'
import { PASSKEY_NOT_ACCEPTED } from './schemas.js'
import { type PasskeysTranslate, passkeysTranslator } from './messages.js'

/**
 * Passkeys on the pages: the login page's passkey button, the security page's section and, for a
 * person with one, the recent-sign-in dialog's passkey.
 */
export function passkeySignInPages(passkeys: Pick<PasskeyRepository, 'listOf'>): SignInMethodPages {
  return {
    loginForms: (language, next) => <PasskeySignInForm t={passkeysTranslator(language)} next={next} />,
    stateOf: async (userId) => {
      const listed = await passkeys.listOf(userId)
      return {
        section: (context, addressVerified) => <PasskeysSection context={context} passkeys={listed} addressVerified={addressVerified} />,
        recentSignIn: listed.length > 0 ? { form: (language) => <ReauthenticateWithPasskey t={passkeysTranslator(language)} />, replacesPassword: false } : undefined
      }
    }
  }
}

/** A discoverable passkey: no address asked for, the browser offers the ones it holds for the hub. */
function PasskeySignInForm({ t, next }: { t: PasskeysTranslate; next: string | undefined }) {
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

/** The recent-sign-in dialog's form for a person with a passkey. */
function ReauthenticateWithPasskey({ t }: { t: PasskeysTranslate }) {
  return (
    <form
      class="stacked-form"
      data-form="reauthenticate-passkey"
      data-needs-webauthn
      data-refusal={PASSKEY_NOT_ACCEPTED}
      data-msg-invalid-credentials={t('login.passkeyRefused')}
      data-msg-passkey-cancelled={t('passkeys.cancelled')}
    >
      <button type="submit">{t('reauth.passkey')}</button>
      <FormMessage />
    </form>
  )
}

/** Each passkey renames in its own row; the section's message line serves the rows' buttons. */
function PasskeysSection({ context: { language }, passkeys, addressVerified }: { context: PageContext; passkeys: ListedPasskey[]; addressVerified: boolean }) {
  const t = passkeysTranslator(language)
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

