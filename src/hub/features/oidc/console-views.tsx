import { CSRF_FORM_FIELD } from '../../kernel/pipeline/csrf.js'
import { type ConsoleSection, ConsoleLayout } from '../../kernel/pages/console.js'
import { ColumnHeadings, type PageContext, Timestamp } from '../../kernel/pages/layout.js'
import { type ComponentChildren } from 'preact'
import { ApplicationLogo } from './applications-section.js'
import {
  type AuthMethod,
  CLIENT_NAME_MAX_LENGTH,
  ID_TOKEN_ALGORITHMS,
  type IdTokenAlgorithm,
  LOGO_URL_MAX_LENGTH,
  MAX_URIS,
  MAX_URI_LENGTH,
  type OidcClient,
  type OidcClientError,
  type PkcePolicy
} from './clients.js'
import { type ClientsMessageKey, clientsTranslator } from './messages.js'

/** The console's section of the applications, and the pages below it. */
export const APPLICATIONS_PATH = '/admin/applications'
export const applicationPath = (clientId: string) => `${APPLICATIONS_PATH}/${encodeURIComponent(clientId)}`

/** What the last change did, said on the page it leads back to (`?notice=`). */
export const APPLICATION_NOTICES = { added: 'clients.notice.added', changed: 'clients.notice.changed', removed: 'clients.notice.removed' } as const
export type ApplicationNotice = keyof typeof APPLICATION_NOTICES

/** What every page of the section is given: the page's context, the console's sections and the form token. */
export interface ConsolePageProps {
  context: PageContext
  sections: readonly ConsoleSection[]
  /** The CSRF token for the forms' `_csrf` field. */
  csrf: string
}

/** The fields the add form and the settings form share, as typed. */
interface ApplicationFormFields {
  name: string
  redirectUris: string
  firstParty: boolean
  /** The names of the groups ticked. */
  allowedGroups: string[]
  logoUrl: string
  idTokenAlg: string
  pkce: string
  authMethod: string
}

/** The add form as typed, kept when it is refused so nothing has to be typed again. */
export interface NewApplicationForm extends ApplicationFormFields {
  clientId: string
  public: boolean
}

/** The settings form as typed. */
export interface ApplicationSettingsForm extends ApplicationFormFields {
  postLogoutRedirectUris: string
  backchannelLogoutUri: string
}

export const EMPTY_NEW_APPLICATION: NewApplicationForm = {
  name: '',
  clientId: '',
  redirectUris: '',
  public: false,
  firstParty: false,
  allowedGroups: [],
  logoUrl: '',
  idTokenAlg: 'EdDSA',
  pkce: 'required',
  authMethod: 'client_secret_basic'
}

export function settingsFormOf(client: OidcClient): ApplicationSettingsForm {
  return {
    name: client.name,
    redirectUris: client.redirectUris.join('\n'),
    postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    firstParty: client.firstParty,
    allowedGroups: client.allowedGroups,
    logoUrl: client.logoUrl ?? '',
    idTokenAlg: client.idTokenAlg,
    pkce: client.pkce,
    authMethod: client.authMethod
  }
}

/** The form's settings as the clients' rules take them; a public client's PKCE and method are its own. */
export function settingsOfForm(form: Pick<NewApplicationForm, 'idTokenAlg' | 'pkce' | 'authMethod'>, isPublic: boolean) {
  return {
    idTokenAlg: form.idTokenAlg as IdTokenAlgorithm,
    pkce: form.pkce as PkcePolicy,
    ...(isPublic ? {} : { authMethod: form.authMethod as AuthMethod })
  }
}

type ClientsTranslate = ReturnType<typeof clientsTranslator>

/** A refusal of the clients' rules in the page's language. */
export function refusalText(t: ClientsTranslate, error: OidcClientError, clientId: string): string {
  const keys: Record<Exclude<OidcClientError['problem'], 'unknown'>, ClientsMessageKey> = {
    id: 'clients.error.id',
    name: 'clients.error.name',
    'no-redirect-uri': 'clients.error.noRedirectUri',
    'too-many-uris': 'clients.error.tooManyUris',
    uri: 'clients.error.uri',
    taken: 'clients.error.taken',
    'public-has-no-secret': 'clients.error.publicHasNoSecret',
    'unknown-group': 'clients.error.unknownGroup',
    'id-token-alg': 'clients.error.idTokenAlg',
    pkce: 'clients.error.pkce',
    'auth-method': 'clients.error.authMethod',
    'native-uri': 'clients.error.nativeUri',
    'logo-url': 'clients.error.logoUrl'
  }
  const key = error.problem === 'unknown' ? 'clients.error.id' : keys[error.problem]
  return t(key, {
    max: error.problem === 'name' ? CLIENT_NAME_MAX_LENGTH : MAX_URIS,
    length: MAX_URI_LENGTH,
    logoMax: LOGO_URL_MAX_LENGTH,
    uri: error.uri ?? '',
    groups: error.uri ?? '',
    clientId
  })
}

function CsrfField({ csrf }: { csrf: string }) {
  return <input type="hidden" name={CSRF_FORM_FIELD} value={csrf} />
}

/** A form's refusal, said where the form is and announced. */
function Refusal({ text }: { text: string | undefined }) {
  return text === undefined ? null : (
    <p class="form-message" role="alert">
      {text}
    </p>
  )
}

function Kind({ t, client }: { t: ClientsTranslate; client: OidcClient }) {
  return (
    <>
      {t(client.public ? 'clients.public' : 'clients.confidential')}
      {client.firstParty && `, ${t('clients.firstParty')}`}
    </>
  )
}

/** Who may sign in to the application, in words. */
function WhoMayUse({ t, client }: { t: ClientsTranslate; client: OidcClient }) {
  if (!client.limitedToGroups) return <>{t('clients.groups.everyone')}</>
  if (client.allowedGroups.length === 0) return <>{t('clients.groups.nobody')}</>
  return <>{t('clients.groups.only', { groups: client.allowedGroups.join(', ') })}</>
}

/**
 * The groups an application may be limited to, one checkbox each (issue 30): none ticked, everyone
 * with an account may use it. Without any group, a hint says where to make them.
 */
function GroupChoices({ t, groups, ticked }: { t: ClientsTranslate; groups: readonly string[]; ticked: readonly string[] }) {
  if (groups.length === 0) return <p class="hint">{t('clients.field.noGroups')}</p>
  const tickedKeys = new Set(ticked.map((name) => name.toLowerCase()))
  return (
    <fieldset aria-describedby="application-groups-hint">
      <legend>{t('clients.field.groups')}</legend>
      <p id="application-groups-hint" class="hint">
        {t('clients.field.groupsHint')}
      </p>
      {groups.map((name) => (
        <label class="choice">
          <input type="checkbox" name="allowedGroups" value={name} checked={tickedKeys.has(name.toLowerCase())} />
          {name}
        </label>
      ))}
    </fieldset>
  )
}

function Choice({ name, value, checked, children }: { name: string; value: string; checked: boolean; children: ComponentChildren }) {
  return (
    <label class="choice">
      <input type="radio" name={name} value={value} checked={checked} />
      {children}
    </label>
  )
}

/** The fields both forms share: the logo, the ID token algorithm and, for a confidential client, PKCE and how it sends its secret. */
function SettingsFields({ t, form, confidentialOnly }: { t: ClientsTranslate; form: Pick<NewApplicationForm, 'logoUrl' | 'idTokenAlg' | 'pkce' | 'authMethod'>; confidentialOnly: boolean }) {
  return (
    <>
      <label for="application-logo-url">{t('clients.field.logoUrl')}</label>
      <input
        id="application-logo-url"
        name="logoUrl"
        type="text"
        inputMode="url"
        value={form.logoUrl}
        maxLength={LOGO_URL_MAX_LENGTH}
        autocapitalize="none"
        spellcheck={false}
        aria-describedby="application-logo-url-hint"
      />
      <p id="application-logo-url-hint" class="hint">
        {t('clients.field.logoUrlHint')}
      </p>
      <label for="application-id-token-alg">{t('clients.field.idTokenAlg')}</label>
      <select id="application-id-token-alg" name="idTokenAlg" aria-describedby="application-id-token-alg-hint">
        {ID_TOKEN_ALGORITHMS.map((alg) => (
          <option value={alg} selected={form.idTokenAlg === alg}>
            {alg}
          </option>
        ))}
      </select>
      <p id="application-id-token-alg-hint" class="hint">
        {t('clients.field.idTokenAlgHint')}
      </p>
      {confidentialOnly && (
        <>
          <fieldset>
            <legend>{t('clients.field.pkce')}</legend>
            <Choice name="pkce" value="required" checked={form.pkce !== 'optional'}>
              {t('clients.field.pkceRequired')}
            </Choice>
            <Choice name="pkce" value="optional" checked={form.pkce === 'optional'}>
              {t('clients.field.pkceOptional')}
            </Choice>
          </fieldset>
          <fieldset aria-describedby="application-auth-method-hint">
            <legend>{t('clients.field.authMethod')}</legend>
            <Choice name="authMethod" value="client_secret_basic" checked={form.authMethod !== 'client_secret_post'}>
              {t('clients.field.authBasic')}
            </Choice>
            <Choice name="authMethod" value="client_secret_post" checked={form.authMethod === 'client_secret_post'}>
              {t('clients.field.authPost')}
            </Choice>
            <p id="application-auth-method-hint" class="hint">
              {t('clients.field.authHint')}
            </p>
          </fieldset>
        </>
      )}
    </>
  )
}

/** What a client's settings are, in the page's words. */
/** Where the application may send people back to, one address a line. */
function RedirectUrisField({ t, value, rows }: { t: ClientsTranslate; value: string; rows: number }) {
  return (
    <>
      <label for="application-redirect-uris">{t('clients.field.redirectUris')}</label>
      <textarea id="application-redirect-uris" name="redirectUris" required rows={rows} autocapitalize="none" spellcheck={false} aria-describedby="application-redirect-uris-hint">
        {value}
      </textarea>
      <p id="application-redirect-uris-hint" class="hint">
        {t('clients.field.redirectUrisHint')}
      </p>
    </>
  )
}

/** Who may use the application and how it signs in: the same fields when adding one and changing it. */
function AccessFields({
  t,
  form,
  groups,
  confidentialOnly
}: {
  t: ClientsTranslate
  form: ApplicationFormFields
  groups: readonly string[]
  confidentialOnly: boolean
}) {
  return (
    <>
      <label class="choice">
        <input type="checkbox" name="firstParty" value="yes" checked={form.firstParty} />
        {t('clients.field.firstParty')}
      </label>
      <GroupChoices t={t} groups={groups} ticked={form.allowedGroups} />
      <SettingsFields t={t} form={form} confidentialOnly={confidentialOnly} />
    </>
  )
}

function SettingsSummary({ t, client }: { t: ClientsTranslate; client: OidcClient }) {
  return (
    <>
      <dt>{t('clients.settings.idTokenAlg')}</dt>
      <dd>{client.idTokenAlg}</dd>
      <dt>{t('clients.settings.pkce')}</dt>
      <dd>{t(client.pkce === 'optional' ? 'clients.pkce.optional' : 'clients.pkce.required')}</dd>
      <dt>{t('clients.settings.authMethod')}</dt>
      <dd class="secret">{client.authMethod}</dd>
    </>
  )
}

/** URIs one per line, each allowed to wrap anywhere (a long callback on a phone). */
function UriList({ uris }: { uris: readonly string[] }) {
  return (
    <ul>
      {uris.map((uri) => (
        <li class="secret">{uri}</li>
      ))}
    </ul>
  )
}

/** `/admin/applications`: every application, and the form that adds one. */
export function ApplicationsPage({
  context,
  sections,
  csrf,
  clients,
  notice,
  form = EMPTY_NEW_APPLICATION,
  refusal,
  groups
}: ConsolePageProps & { clients: readonly OidcClient[]; notice?: ApplicationNotice | undefined; form?: NewApplicationForm; refusal?: string | undefined; groups: readonly string[] }) {
  const { language } = context
  const t = clientsTranslator(language)
  return (
    <ConsoleLayout context={context} title={t('clients.section')} sections={sections} notice={notice && t(APPLICATION_NOTICES[notice])}>
      <p>{t('clients.intro')}</p>
      {clients.length === 0 ? (
        <p>{t('clients.none')}</p>
      ) : (
        <table class="application-table">
          <ColumnHeadings labels={[t('clients.name'), t('clients.clientId'), t('clients.kind'), t('clients.redirectUris'), t('clients.added')]} />
          <tbody>
            {clients.map((client) => (
              <tr>
                <td data-label={t('clients.name')}>
                  <ApplicationLogo logoUrl={client.logoUrl} alt={t('clients.logo.alt', { name: client.name })} />{' '}
                  <a href={applicationPath(client.id)}>{client.name}</a>
                </td>
                <td data-label={t('clients.clientId')} class="secret">
                  {client.id}
                </td>
                <td data-label={t('clients.kind')}>
                  <Kind t={t} client={client} />
                </td>
                <td data-label={t('clients.redirectUris')}>
                  <UriList uris={client.redirectUris} />
                </td>
                <td data-label={t('clients.added')}>
                  <Timestamp iso={client.createdAt} language={language} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <section aria-labelledby="add-application-heading">
        <h2 id="add-application-heading">{t('clients.add.heading')}</h2>
        <form method="post" action={APPLICATIONS_PATH} class="stacked-form">
          <CsrfField csrf={csrf} />
          <label for="application-name">{t('clients.field.name')}</label>
          <input id="application-name" name="name" type="text" value={form.name} maxLength={CLIENT_NAME_MAX_LENGTH} aria-describedby="application-name-hint" />
          <p id="application-name-hint" class="hint">
            {t('clients.field.nameHint')}
          </p>
          <label for="application-client-id">{t('clients.field.clientId')}</label>
          <input
            id="application-client-id"
            name="clientId"
            type="text"
            value={form.clientId}
            required
            maxLength={59}
            autocapitalize="none"
            spellcheck={false}
            aria-describedby="application-client-id-hint"
          />
          <p id="application-client-id-hint" class="hint">
            {t('clients.field.clientIdHint')}
          </p>
          <RedirectUrisField t={t} value={form.redirectUris} rows={3} />
          <fieldset>
            <legend>{t('clients.field.kind')}</legend>
            <label class="choice">
              <input type="radio" name="kind" value="confidential" checked={!form.public} />
              {t('clients.field.confidential')}
            </label>
            <label class="choice">
              <input type="radio" name="kind" value="public" checked={form.public} />
              {t('clients.field.public')}
            </label>
          </fieldset>
          <AccessFields t={t} form={form} groups={groups} confidentialOnly />
          <Refusal text={refusal} />
          <button type="submit">{t('clients.add.submit')}</button>
        </form>
      </section>
    </ConsoleLayout>
  )
}

/** `/admin/applications/{clientId}`: one application's settings, its secret and removing it. */
export function ApplicationPage({
  context,
  sections,
  csrf,
  client,
  notice,
  form = settingsFormOf(client),
  refusal,
  groups
}: ConsolePageProps & { client: OidcClient; notice?: ApplicationNotice | undefined; form?: ApplicationSettingsForm; refusal?: string | undefined; groups: readonly string[] }) {
  const { language } = context
  const t = clientsTranslator(language)
  const path = applicationPath(client.id)
  return (
    <ConsoleLayout context={context} title={client.name} sections={sections} notice={notice && t(APPLICATION_NOTICES[notice])}>
      {client.logoUrl !== null && (
        <p>
          <ApplicationLogo logoUrl={client.logoUrl} alt={t('clients.logo.alt', { name: client.name })} size={64} />
        </p>
      )}
      <dl class="billing-summary">
        <dt>{t('clients.clientId')}</dt>
        <dd class="secret">{client.id}</dd>
        <dt>{t('clients.kind')}</dt>
        <dd>
          <Kind t={t} client={client} />
        </dd>
        <dt>{t('clients.added')}</dt>
        <dd>
          <Timestamp iso={client.createdAt} language={language} />
        </dd>
        <dt>{t('clients.groups')}</dt>
        <dd>
          <WhoMayUse t={t} client={client} />
        </dd>
        <SettingsSummary t={t} client={client} />
      </dl>
      <section aria-labelledby="application-settings-heading">
        <h2 id="application-settings-heading">{t('clients.edit.heading')}</h2>
        <p class="hint">{t('clients.edit.kindFixed')}</p>
        <form method="post" action={path} class="stacked-form">
          <CsrfField csrf={csrf} />
          <label for="application-name">{t('clients.field.name')}</label>
          <input id="application-name" name="name" type="text" value={form.name} required maxLength={CLIENT_NAME_MAX_LENGTH} />
          <RedirectUrisField t={t} value={form.redirectUris} rows={4} />
          <label for="application-post-logout-redirect-uris">{t('clients.field.postLogoutRedirectUris')}</label>
          <textarea id="application-post-logout-redirect-uris" name="postLogoutRedirectUris" rows={2} autocapitalize="none" spellcheck={false}>
            {form.postLogoutRedirectUris}
          </textarea>
          <label for="application-backchannel-logout-uri">{t('clients.field.backchannelLogoutUri')}</label>
          <input
            id="application-backchannel-logout-uri"
            name="backchannelLogoutUri"
            type="text"
            inputMode="url"
            value={form.backchannelLogoutUri}
            autocapitalize="none"
            spellcheck={false}
            aria-describedby="application-backchannel-logout-uri-hint"
          />
          <p id="application-backchannel-logout-uri-hint" class="hint">
            {t('clients.field.backchannelLogoutUriHint')}
          </p>
          <AccessFields t={t} form={form} groups={groups} confidentialOnly={!client.public} />
          <Refusal text={refusal} />
          <button type="submit">{t('clients.edit.submit')}</button>
        </form>
      </section>
      <section aria-labelledby="application-secret-heading">
        <h2 id="application-secret-heading">{t('clients.secret.heading')}</h2>
        {client.public ? (
          <p>{t('clients.secret.publicNone')}</p>
        ) : (
          <form method="post" action={`${path}/secret`} class="stacked-form">
            <CsrfField csrf={csrf} />
            <p>{t('clients.secret.intro')}</p>
            <button type="submit" class="secondary-button">
              {t('clients.secret.submit')}
            </button>
          </form>
        )}
      </section>
      <section aria-labelledby="application-remove-heading">
        <h2 id="application-remove-heading">{t('clients.remove.heading')}</h2>
        <p>
          <a href={`${path}/remove`}>{t('clients.remove.link')}</a>
        </p>
      </section>
    </ConsoleLayout>
  )
}

/** `/admin/applications/{clientId}/remove`: the confirmation a removal asks first. */
export function RemoveApplicationPage({ context, sections, csrf, client }: ConsolePageProps & { client: OidcClient }) {
  const t = clientsTranslator(context.language)
  const path = applicationPath(client.id)
  return (
    <ConsoleLayout context={context} title={t('clients.remove.title', { name: client.name })} sections={sections}>
      <p>{t('clients.remove.intro')}</p>
      <form method="post" action={`${path}/remove`} class="button-row">
        <CsrfField csrf={csrf} />
        <button type="submit" class="danger-button">
          {t('clients.remove.submit')}
        </button>
        <a href={path}>{t('clients.remove.cancel')}</a>
      </form>
    </ConsoleLayout>
  )
}

/**
 * The one page a secret is ever shown on: the answer to the POST that made it (never a URL,
 * never stored), for a new confidential application or a replaced secret.
 */
export function SecretPage({ context, sections, client, secret, issuer, replaced }: Omit<ConsolePageProps, 'csrf'> & { client: OidcClient; secret: string; issuer: string; replaced: boolean }) {
  const t = clientsTranslator(context.language)
  return (
    <ConsoleLayout context={context} title={t('clients.secret.title', { name: client.name })} sections={sections} notice={replaced ? t('clients.secret.replaced') : t('clients.notice.added')}>
      <p>{t('clients.secret.once')}</p>
      <dl class="billing-summary">
        <dt>{t('clients.secret.issuer')}</dt>
        <dd class="secret">{issuer}</dd>
        <dt>{t('clients.clientId')}</dt>
        <dd class="secret">{client.id}</dd>
        <dt>{t('clients.secret.value')}</dt>
        <dd>
          <code class="secret" data-client-secret>
            {secret}
          </code>
        </dd>
      </dl>
      <p>
        <a href={applicationPath(client.id)}>{t('clients.secret.done')}</a>
      </p>
    </ConsoleLayout>
  )
}
