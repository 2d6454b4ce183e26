import type { IncomingMessage } from 'node:http'
import type { KoaContextWithOIDC } from 'oidc-provider'
import type { VNode } from 'preact'
import { render } from 'preact-render-to-string'
import { Layout, type PageContext } from '../../kernel/pages/layout.js'
import { type OidcTranslate, oidcTranslatorFor } from './messages.js'
import { OIDC_PATH_PREFIX } from './paths.js'

/** The page context the mount read of a request before handing it to the provider, for the pages it renders. */
export type PageContextOfRequest = (request: IncomingMessage) => PageContext

export function pageHtml(page: VNode): string {
  return `<!doctype html>${render(page)}`
}

/**
 * A policy with the one origin a page's form leads to besides the hub: browsers apply
 * `form-action` to the redirects after a submission too, and the last one goes to the application.
 */
export function policyWithFormTarget(policy: string, target: string | undefined): string {
  if (!target) return policy
  return policy.replace("form-action 'self'", `form-action 'self' ${new URL(target).origin}`)
}

/**
 * Where a provider page's form ends up: the post-logout or redirect URI of the request, once the
 * provider has checked it is one the client registered (an error page gets no such widening).
 */
export function formTargetOf(ctx: KoaContextWithOIDC): string | undefined {
  const { client, params } = ctx.oidc ?? {}
  if (!client || !params || !String(ctx.type).includes('html')) return undefined
  const { post_logout_redirect_uri: afterLogout, redirect_uri: redirect } = params
  if (typeof afterLogout === 'string' && client.postLogoutRedirectUriAllowed(afterLogout)) return afterLogout
  if (typeof redirect === 'string' && client.redirectUriAllowed(redirect)) return redirect
  return undefined
}

/** Answers the provider's request with one of its pages, in the person's language. */
function respondWithPage(ctx: KoaContextWithOIDC, context: PageContext, page: (t: OidcTranslate) => VNode): void {
  ctx.set('content-language', context.language)
  ctx.type = 'html'
  ctx.body = pageHtml(page(oidcTranslatorFor(context.language)))
}

/** RP-initiated logout's confirmation: signing out ends the hub session too (routes.ts). */
export async function logoutPage(ctx: KoaContextWithOIDC, secret: string, context: PageContext): Promise<void> {
  respondWithPage(ctx, context, (t) => (
    <Layout context={context} title={t('logout.title')}>
      <p>{t('logout.intro')}</p>
      <form method="post" action={`${OIDC_PATH_PREFIX}/session/end/confirm`} class="stacked-form">
        <input type="hidden" name="xsrf" value={secret} />
        <button type="submit" name="logout" value="yes">
          {t('logout.confirm')}
        </button>
      </form>
      <p>
        <a href="/dashboard">{t('logout.cancel')}</a>
      </p>
    </Layout>
  ))
}

/** An authorization or logout request the provider refused, shown to the person (never a token or secret). */
export async function providerErrorPage(ctx: KoaContextWithOIDC, out: Record<string, string>, context: PageContext): Promise<void> {
  respondWithPage(ctx, context, (t) => (
    <Layout context={context} title={t('error.title')}>
      <p>{t('error.intro')}</p>
      <p>{t('error.detail', { detail: out.error_description ?? out.error ?? '' })}</p>
    </Layout>
  ))
}

/** `scopeTexts`: what each requested scope gives the application, in the page's language. */
export function ConsentPage({
  context,
  t,
  clientName,
  logoUrl = null,
  scopeTexts,
  action
}: {
  context: PageContext
  t: OidcTranslate
  clientName: string
  logoUrl?: string | null
  scopeTexts: readonly string[]
  action: string
}) {
  return (
    <Layout context={context} title={t('consent.title', { client: clientName })}>
      {logoUrl !== null && (
        <p>
          <img class="application-logo" src={logoUrl} alt={t('applications.logo', { name: clientName })} width={64} height={64} referrerpolicy="no-referrer" />
        </p>
      )}
      <p>{t('consent.intro', { client: clientName })}</p>
      <ul>
        {scopeTexts.map((text) => (
          <li>{text}</li>
        ))}
      </ul>
      <p class="hint">{t('consent.remembered', { client: clientName })}</p>
      <form method="post" action={action} class="stacked-form">
        <button type="submit" name="decision" value="allow">
          {t('consent.allow')}
        </button>
        <button type="submit" name="decision" value="deny">
          {t('consent.deny')}
        </button>
      </form>
    </Layout>
  )
}

/**
 * A person the application's groups do not admit (docs/oidc.md, "Who may use an application"):
 * the hub says so in its own words, and the one way on goes back to the application, which then
 * receives `error=access_denied` (as a declined consent does).
 */
export function NotAdmittedPage({ context, t, clientName, action }: { context: PageContext; t: OidcTranslate; clientName: string; action: string }) {
  return (
    <Layout context={context} title={t('notAdmitted.title', { client: clientName })}>
      <p>{t('notAdmitted.intro', { client: clientName })}</p>
      <form method="post" action={action} class="stacked-form">
        <button type="submit">{t('notAdmitted.back', { client: clientName })}</button>
      </form>
    </Layout>
  )
}
