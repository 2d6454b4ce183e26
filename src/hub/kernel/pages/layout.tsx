import type { ComponentChildren } from 'preact'
import { FAVICON_PATH } from './favicon.js'
import type { Translate } from './i18n/index.js'
import { LANGUAGES, type Language } from '../language/language.js'
import { CONSOLE_PATH } from './console.js'

/** What every page needs to know about the request it answers. */
export interface PageContext {
  language: Language
  t: Translate
  /** The CSP nonce of this response, for the one script tag. */
  nonce: string
  assets: { script: string; stylesheet: string }
  /** The page's own path and query, where the language switcher comes back to. */
  currentPath: string
  signedIn: boolean
  /** Whether the hub keeps its own accounts (the built-in provider): then it offers the account and recovery pages. */
  accountPages: boolean
  /** Whether the signed-in person is an administrator: then the navigation leads to the console. */
  administrator?: boolean
}

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' }

/** The sentences of the shell itself, which every service's catalogue holds. */
type ShellText = (key: 'site.name' | 'site.skipToContent' | 'site.languageSwitch' | 'site.language') => string

export interface PageShellProps {
  t: ShellText
  language: Language
  title: string
  /** The page's own path and query, where the language switch comes back to. */
  currentPath: string
  assets: { script: string; stylesheet: string }
  /** The CSP nonce of this response, for the one script tag. */
  nonce: string
  /** The body's data attributes (`data-*`): state and messages for the page's script. */
  bodyData?: Record<`data-${string}`, string>
  navigation?: ComponentChildren
  /** After the main region: a live region of the page's script, say. */
  afterMain?: ComponentChildren
  children: ComponentChildren
}

/**
 * The document every page of the family is: head with the stylesheet and the one nonce'd script,
 * a skip link, the header (site name, navigation, language switch) and the main region.
 */
export function PageShell({ t, language, title, currentPath, assets, nonce, bodyData = {}, navigation, afterMain, children }: PageShellProps) {
  return (
    <html lang={language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${t('site.name')}`}</title>
        <link rel="icon" href={FAVICON_PATH} type="image/svg+xml" />
        <link rel="stylesheet" href={assets.stylesheet} />
        <script type="module" src={assets.script} nonce={nonce} />
      </head>
      <body {...bodyData}>
        <a class="skip-link" href="#main">
          {t('site.skipToContent')}
        </a>
        <header class="site-header">
          <span class="site-name">{t('site.name')}</span>
          {navigation}
          <LanguageSwitcher t={t} language={language} currentPath={currentPath} />
        </header>
        <main id="main" tabIndex={-1}>
          <h1>{title}</h1>
          {children}
        </main>
        {afterMain}
      </body>
    </html>
  )
}

/**
 * The hub's page shell. Localised messages the client script may show are handed to it as data
 * attributes, so the script holds no text of its own and needs no inline data.
 */
export function Layout({ context, title, children }: { context: PageContext; title: string; children: ComponentChildren }) {
  const { t, signedIn, accountPages, administrator = false } = context
  const bodyData = {
    'data-signed-in': signedIn ? 'true' : 'false',
    'data-msg-network': t('error.network'),
    'data-msg-invalid-credentials': t('error.invalidCredentials'),
    'data-msg-email-taken': t('error.emailTaken'),
    'data-msg-too-many': t('error.tooManyRequests'),
    'data-msg-generic': t('error.generic'),
    // The API's fixed refusals in the page's words (src/hub/client/refusals.ts names which is which).
    'data-msg-refusal-password-too-short': t('refusal.passwordTooShort'),
    'data-msg-refusal-password-too-long': t('refusal.passwordTooLong'),
    'data-msg-refusal-password-common': t('refusal.passwordCommon'),
    'data-msg-refusal-email-invisible': t('refusal.emailInvisible'),
    'data-msg-refusal-email-too-long': t('refusal.emailTooLong'),
    'data-msg-refusal-email-invalid': t('refusal.emailInvalid'),
    'data-msg-refusal-signup-closed': t('refusal.signupClosed'),
    'data-msg-refusal-invitation-needed': t('refusal.invitationNeeded'),
    'data-msg-refusal-second-factor-required': t('refusal.secondFactorRequired'),
    'data-msg-working': t('form.working'),
    'data-msg-saved': t('form.saved')
  } as const
  return (
    <PageShell {...context} title={title} bodyData={bodyData} navigation={signedIn && <SiteNavigation t={t} accountPages={accountPages} administrator={administrator} />}>
      {children}
    </PageShell>
  )
}

function SiteNavigation({ t, accountPages, administrator }: { t: Translate; accountPages: boolean; administrator: boolean }) {
  return (
    <nav aria-label={t('site.mainNavigation')}>
      <ul class="nav-list">
        <li>
          <a href="/dashboard">{t('nav.dashboard')}</a>
        </li>
        <li>
          <a href="/privacy">{t('nav.privacy')}</a>
        </li>
        <li>
          <a href="/export">{t('nav.export')}</a>
        </li>
        {accountPages && (
          <li>
            <a href="/account">{t('nav.account')}</a>
          </li>
        )}
        <li>
          <a href="/account/security">{t('nav.security')}</a>
        </li>
        {administrator && (
          <li>
            <a href={CONSOLE_PATH}>{t('nav.administration')}</a>
          </li>
        )}
        <li>
          <button type="button" class="link-button" data-action="sign-out">
            {t('nav.signOut')}
          </button>
        </li>
      </ul>
    </nav>
  )
}

/** A plain GET form, so switching language works without the script and needs no CSRF token. */
function LanguageSwitcher({ t, language, currentPath }: { t: ShellText; language: Language; currentPath: string }) {
  return (
    <form method="get" action="/language" class="language-switcher" aria-label={t('site.languageSwitch')}>
      <input type="hidden" name="next" value={currentPath} />
      <span class="language-label">{t('site.language')}:</span>
      {LANGUAGES.map((option) => (
        <button type="submit" name="lang" value={option} lang={option} aria-pressed={option === language ? 'true' : 'false'}>
          {LANGUAGE_NAMES[option]}
        </button>
      ))}
    </form>
  )
}

/** A table's header row: one column heading per label; an empty label heads a column of buttons. */
export function ColumnHeadings({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr>{labels.map((label) => (label ? <th scope="col">{label}</th> : <td />))}</tr>
    </thead>
  )
}

/** A form's message line: the client script writes errors and confirmations into it. */
export function FormMessage() {
  return <p class="form-message" role="alert" data-form-message />
}

/** A timestamp in the page's language, in UTC so the page reads the same wherever it is rendered. */
export function Timestamp({ iso, language }: { iso: string; language: Language }) {
  return <time dateTime={iso}>{formatTimestamp(iso, language)}</time>
}

export function formatTimestamp(iso: string, language: Language): string {
  const formatted = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))
  return `${formatted} UTC`
}
