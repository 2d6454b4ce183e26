import type { VNode } from 'preact'
import { LANGUAGES, type Language } from '../../../kernel/language/language.js'
import { FormMessage, LANGUAGE_NAMES, Layout, type PageContext } from '../../../kernel/pages/layout.js'
import type { SignInMethodState } from '../../../kernel/pages/shell.js'
import { AccountDeletionSection } from '../../../kernel/pages/views/account-deletion.js'
import { MailOutboxNote } from '../../../kernel/pages/views/mail-outbox-note.js'
import { PasswordConfirmedForm } from '../../../kernel/pages/views/password-confirmed-form.js'
import { NewPasswordInput, PasswordHint } from '../../../kernel/pages/views/passwords.js'
import { RecentSignInDialog } from '../../../kernel/pages/views/recent-sign-in-dialog.js'
import type { Profile } from '../repository.js'
import { accountTranslator } from '../messages.js'

export interface AccountPageProps {
  context: PageContext
  /** `locale` null when the person chose none: the form shows the page's language then. */
  profile: Profile & { locale: Language | null }
  /** The API's 401 text for a wrong current password: that 401 is the form's, not a lost session. */
  wrongPasswordError: string
  /** How the person may confirm a recent sign-in besides the password, which the address and password changes and the deletion ask for. */
  signInMethods: readonly SignInMethodState[]
  /** What other features add to the page after the password (the applications signed in with the hub), rendered. */
  sections: readonly VNode[]
  /** The command that reads DATA_DIR/outbox when the hub writes its mail there (no HUB_SMTP_URL); undefined when it sends it. */
  mailOutbox: string | undefined
  /** The account's id, shown once, small, for when an administrator asks for it. */
  userId: string
}

/** Profile, address and password of the built-in provider's account, each its own form, and its deletion. */
export function AccountPage({ context, profile, wrongPasswordError, signInMethods, sections, mailOutbox, userId }: AccountPageProps) {
  const t = accountTranslator(context.language)
  return (
    <Layout context={context} title={t('account.title')}>
      <ProfileForm context={context} profile={profile} />
      <AddressSection context={context} profile={profile} wrongPasswordError={wrongPasswordError} mailOutbox={mailOutbox} />
      <PasswordSection context={context} profile={profile} wrongPasswordError={wrongPasswordError} />
      {sections}
      <p>
        <a href="/account/security">{t('security.manageLink')}</a>
      </p>
      {/* Without a password, the recent sign-in (a passkey's) is the whole proof, as under an external provider. */}
      <AccountDeletionSection context={context} wrongPasswordError={profile.hasPassword ? wrongPasswordError : undefined} email={profile.email} />
      <p class="hint">{t('account.userId', { userId })}</p>
      <RecentSignInDialog context={context} methods={signInMethods} wrongPasswordError={wrongPasswordError} email={profile.email} hasPassword={profile.hasPassword} />
    </Layout>
  )
}

/** A name cannot be cleared once set (the API refuses an empty one), so the field is required then. */
function ProfileForm({ context: { language: pageLanguage }, profile }: Pick<AccountPageProps, 'context' | 'profile'>) {
  const t = accountTranslator(pageLanguage)
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('account.profile')}</h2>
      <form class="stacked-form" data-form="profile">
        <label for="display-name">{t('account.displayName')}</label>
        <input
          id="display-name"
          name="displayName"
          type="text"
          autocomplete="nickname"
          value={profile.displayName ?? ''}
          required={profile.displayName !== null}
          aria-describedby="display-name-hint"
        />
        <p id="display-name-hint" class="hint">
          {t('account.displayNameHint')}
        </p>
        <label for="locale">{t('account.language')}</label>
        <select id="locale" name="locale" aria-describedby="locale-hint">
          {LANGUAGES.map((language) => (
            <option value={language} lang={language} selected={language === (profile.locale ?? pageLanguage)}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <p id="locale-hint" class="hint">
          {t('account.languageHint')}
        </p>
        <button type="submit">{t('account.saveProfile')}</button>
        <FormMessage />
      </form>
    </section>
  )
}

function AddressSection({ context: { language }, profile, wrongPasswordError, mailOutbox }: Pick<AccountPageProps, 'context' | 'profile' | 'wrongPasswordError' | 'mailOutbox'>) {
  const t = accountTranslator(language)
  return (
    <section aria-labelledby="address-heading" data-msg-done={t('account.resent', { email: profile.email })}>
      <h2 id="address-heading">{t('account.address')}</h2>
      {/* The confirmation link and the address change's link are mailed. */}
      <MailOutboxNote t={t} command={mailOutbox} />
      <p>
        <strong>{profile.email}</strong>
        <span class="badge" data-email-verified={profile.emailVerified ? 'true' : 'false'}>
          {profile.emailVerified ? t('account.verified') : t('account.notVerified')}
        </span>
      </p>
      {!profile.emailVerified && (
        <p>
          <button type="button" data-action="resend-verification">
            {t('account.resend')}
          </button>
        </p>
      )}
      <FormMessage />
      <h3 id="change-address-heading">{t('account.changeAddress')}</h3>
      <PasswordConfirmedForm
        t={t}
        form="email-change"
        labelledBy="change-address-heading"
        wrongPasswordError={wrongPasswordError}
        email={profile.email}
        messages={{ 'data-msg-email-taken': t('account.emailTaken'), 'data-msg-done': t('account.changeAddressSent') }}
      >
        <label for="new-email">{t('account.newAddress')}</label>
        <input id="new-email" name="email" type="email" autocomplete="email" required aria-describedby="new-email-hint" />
        <p id="new-email-hint" class="hint">
          {t('account.changeAddressHint')}
        </p>
        {profile.hasPassword && (
          <>
            <label for="email-current-password">{t('account.currentPassword')}</label>
            <input id="email-current-password" name="currentPassword" type="password" autocomplete="current-password" required />
          </>
        )}
        <button type="submit">{t('account.changeAddressSubmit')}</button>
      </PasswordConfirmedForm>
    </section>
  )
}

function PasswordSection({ context: { language }, profile, wrongPasswordError }: Pick<AccountPageProps, 'context' | 'profile' | 'wrongPasswordError'>) {
  const t = accountTranslator(language)
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">{t('form.password')}</h2>
      <PasswordConfirmedForm
        t={t}
        form="password-change"
        labelledBy="password-heading"
        wrongPasswordError={wrongPasswordError}
        email={profile.email}
        messages={{ 'data-msg-done': t('account.passwordChanged') }}
      >
        {profile.hasPassword ? (
          <>
            <label for="current-password">{t('account.currentPassword')}</label>
            <input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required />
          </>
        ) : (
          <p>{t('account.noPassword')}</p>
        )}
        <label for="new-password">{t('form.newPassword')}</label>
        <NewPasswordInput id="new-password" name="newPassword" />
        <PasswordHint t={t} />
        <button type="submit">{t(profile.hasPassword ? 'password.change' : 'password.set')}</button>
      </PasswordConfirmedForm>
    </section>
  )
}
