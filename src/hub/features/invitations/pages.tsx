import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { SignupMode } from '../../../shared/config.js'
import type { Database } from '../../../shared/database/schema.js'
import { INVITATION_REFUSED } from '../../kernel/accounts/invitations.js'
import type { FeaturesDeclared } from '../../kernel/feature.js'
import { LANGUAGES, type Language } from '../../kernel/language/language.js'
import { ConsoleLayout, type ConsoleSection } from '../../kernel/pages/console.js'
import { ColumnHeadings, FormMessage, LANGUAGE_NAMES, Layout, type PageContext, Timestamp } from '../../kernel/pages/layout.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { MailOutboxNote } from '../../kernel/pages/views/mail-outbox-note.js'
import { NewPasswordInput, PasswordHint } from '../../kernel/pages/views/passwords.js'
import { CSRF_FORM_FIELD } from '../../kernel/pipeline/csrf.js'
import { INVITATIONS_ERRORS, INVITATIONS_NOTICES, type InvitationsError, type InvitationsNotice, invitationsTranslator } from './messages.js'
import { INVITE_PATH } from './mails.js'
import type { Invitations, PendingInvitation } from './service.js'

export const INVITATIONS_PATH = '/admin/invitations'

const OutcomeQuery = Type.Object({ notice: Type.Optional(Type.Unknown()), error: Type.Optional(Type.Unknown()) })

export interface InvitationsPagesOptions {
  invitations: Invitations
  db: Kysely<Database>
  signup: SignupMode
  /** Whether `/invite` offers a passkey instead of a password (a feature declares `firstPasskey`). */
  passkeys: boolean
}

/** The console's invitations section, and the page an invitation's link opens. */
export function invitationsPages({ invitations, db, signup, passkeys }: InvitationsPagesOptions, declared: FeaturesDeclared): HubPage[] {
  return [
    {
      path: INVITATIONS_PATH,
      signedIn: true,
      administrators: true,
      querystring: OutcomeQuery,
      async render({ request, reply, session, shell }) {
        const { notice, error } = (request.query ?? {}) as { notice?: unknown; error?: unknown }
        const [context, pending, groups] = await Promise.all([
          shell.contextOf(request, reply, session),
          invitations.pending(),
          db.selectFrom('groups').select('name').orderBy('nameKey').execute()
        ])
        return (
          <InvitationsPage
            context={context}
            sections={declared.consoleSections}
            signup={signup}
            pending={pending}
            groups={groups.map((group) => group.name)}
            csrf={reply.formCsrfToken()}
            mailOutbox={shell.mailOutbox}
            notice={INVITATIONS_NOTICES.find((known) => known === notice)}
            error={INVITATIONS_ERRORS.find((known) => known === error)}
          />
        )
      }
    },
    {
      path: INVITE_PATH,
      signedIn: false,
      async render({ request, reply, session, shell }) {
        return <InvitePage context={await shell.contextOf(request, reply, session)} passkeys={passkeys} />
      }
    }
  ]
}

interface InvitationsPageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
  signup: SignupMode
  pending: PendingInvitation[]
  groups: string[]
  csrf: string
  mailOutbox: string | undefined
  notice: InvitationsNotice | undefined
  error: InvitationsError | undefined
}

function InvitationsPage({ context, sections, signup, pending, groups, csrf, mailOutbox, notice, error }: InvitationsPageProps) {
  const t = invitationsTranslator(context.language)
  const { language } = context
  return (
    <ConsoleLayout context={context} title={t('invitations.title')} sections={sections} notice={notice && t(`invitations.notice.${notice}`)}>
      <p>{t(`invitations.mode.${signup}`)}</p>
      {error !== undefined && (
        <p class="form-message" role="alert" data-outcome="error">
          {t(`invitations.error.${error}`)}
        </p>
      )}
      {signup !== 'closed' && (
        <section aria-labelledby="invite-heading">
          <h2 id="invite-heading">{t('invitations.send')}</h2>
          <p>{t('invitations.sendHint')}</p>
          <MailOutboxNote t={t} command={mailOutbox} />
          <form method="post" action={INVITATIONS_PATH} class="stacked-form">
            <input type="hidden" name={CSRF_FORM_FIELD} value={csrf} />
            <label for="invite-email">{t('invitations.email')}</label>
            <input id="invite-email" name="email" type="email" required autocomplete="off" />
            <fieldset>
              <legend>{t('invitations.groups')}</legend>
              {groups.length === 0 && <p>{t('invitations.noGroups')}</p>}
              {groups.map((group) => (
                <label class="choice">
                  <input type="checkbox" name="groups" value={group} /> {group}
                </label>
              ))}
            </fieldset>
            <label for="invite-language">{t('invitations.language')}</label>
            <select id="invite-language" name="language">
              {LANGUAGES.map((option: Language) => (
                <option value={option} selected={option === language}>
                  {LANGUAGE_NAMES[option]}
                </option>
              ))}
            </select>
            <button type="submit">{t('invitations.submit')}</button>
          </form>
        </section>
      )}
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">{t('invitations.pending')}</h2>
        {pending.length === 0 ? (
          <p>{t('invitations.none')}</p>
        ) : (
          <table>
            <ColumnHeadings labels={[t('invitations.sentTo'), t('invitations.groupsColumn'), t('invitations.invitedBy'), t('invitations.expires'), '']} />
            <tbody>
              {pending.map((invitation) => (
                <tr>
                  <td data-label={t('invitations.sentTo')}>{invitation.email}</td>
                  <td data-label={t('invitations.groupsColumn')}>{invitation.groups.join(', ')}</td>
                  <td data-label={t('invitations.invitedBy')}>{invitation.invitedBy ?? t('invitations.terminal')}</td>
                  <td data-label={t('invitations.expires')}>
                    <Timestamp iso={invitation.expiresAt} language={language} />
                  </td>
                  <td>
                    <form method="post" action={`${INVITATIONS_PATH}/${encodeURIComponent(invitation.id)}/withdraw`}>
                      <input type="hidden" name={CSRF_FORM_FIELD} value={csrf} />
                      <button type="submit" class="secondary-button">
                        {t('invitations.withdraw')} <span class="visually-hidden">{t('invitations.withdrawDetail', { email: invitation.email })}</span>
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </ConsoleLayout>
  )
}

/**
 * The page an invitation's link opens: a password for the invited address, or a passkey instead.
 * The token is in the fragment, which the server never sees: the script takes it from there
 * (`data-link-token`), with the address, and makes the new account with it, then signs it in.
 * The passkey's form shows where the browser has WebAuthn (`data-needs-webauthn`).
 */
function InvitePage({ context, passkeys }: { context: PageContext; passkeys: boolean }) {
  const t = invitationsTranslator(context.language)
  // Both forms word a refused or missing link; the first holds the token (so "the link is needed" is said once).
  const refusals = {
    'data-link-refused-error': INVITATION_REFUSED,
    'data-msg-link-refused': t('invite.refused'),
    'data-msg-link-missing': t('invite.missing')
  }
  return (
    <Layout context={context} title={t('invite.title')}>
      <p>{t('invite.intro')}</p>
      <form class="stacked-form" data-form="accept-invitation" data-link-token="invitation" {...refusals}>
        <label for="invite-email">{t('invite.email')}</label>
        {/* Filled by the script with the address the link came with; the invitation is for it alone. */}
        <input id="invite-email" name="email" type="email" autocomplete="username" readOnly required data-link-account />
        <label for="new-password">{t('invite.password')}</label>
        <NewPasswordInput id="new-password" name="password" />
        <PasswordHint t={t} />
        <button type="submit">{t('invite.submit')}</button>
        <FormMessage />
      </form>
      {passkeys && (
        <section aria-labelledby="invite-passkey-heading" data-needs-webauthn>
          <h2 id="invite-passkey-heading">{t('invite.passkeyHeading')}</h2>
          <p>{t('invite.passkeyIntro')}</p>
          <form class="stacked-form" data-form="accept-invitation-passkey" data-msg-passkey-cancelled={t('invite.passkeyCancelled')} {...refusals}>
            <button type="submit" class="secondary-button">
              {t('invite.passkeySubmit')}
            </button>
            <FormMessage />
          </form>
        </section>
      )}
    </Layout>
  )
}

export const invitationsSection: ConsoleSection = { path: INVITATIONS_PATH, label: (language) => invitationsTranslator(language)('invitations.section') }
