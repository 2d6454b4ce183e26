import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { InteractionDetails } from 'oidc-provider'
import { Type } from 'typebox'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest, notFound } from '../../../shared/errors.js'
import type { App } from '../../../shared/http/server.js'
import { type AuditRequest, requestOrigin } from '../../kernel/audit/context.js'
import { AUTH_COOKIE } from '../../kernel/http/cookies.js'
import type { PageAssets } from '../../kernel/pages/assets.js'
import { translatorFor } from '../../kernel/pages/i18n/index.js'
import { LANGUAGE_COOKIE, type Language, chooseLanguage } from '../../kernel/language/language.js'
import type { PageContext } from '../../kernel/pages/layout.js'
import { loginPathReturningTo } from '../../kernel/language/next-path.js'
import type { ActiveSession, Sessions } from '../../kernel/sessions/sessions.js'
import { contentSecurityPolicy, policyWithImages } from '../../kernel/security/security-headers.js'
import type { AddedClaims } from '../../kernel/tokens/claims.js'
import type { Keyring } from '../../kernel/tokens/keyring.js'
import type { OidcClients } from './clients.js'
import { startEndingProviderSessionsOfEndedHubSessions } from './ended-hub-sessions.js'
import { connectedApplicationRoutes } from './applications-routes.js'
import { type ConnectedApplications, type ConsentLog, consentPurposeOf } from './connected-applications.js'
import { type DiscoveryDocument, renderDiscovery } from './discovery.js'
import { type OidcTranslate, oidcTranslatorFor } from './messages.js'
import { type OidcProviderLibrary, type Provider, loadOidcProvider } from './oidc-provider-module.js'
import { DISCOVERY_PATH, OIDC_PATH_PREFIX, interactionPath } from './paths.js'
import { NOT_ADMITTED_PROMPT, type ProviderAccountOf, buildHubProvider, providerScopes } from './provider.js'
import { ConsentPage, NotAdmittedPage, formTargetOf, pageHtml, policyWithFormTarget } from './provider-pages.js'

export interface OidcProviderRoutesOptions {
  issuer: string
  db: Kysely<Database>
  clients: OidcClients
  connectedApplications: ConnectedApplications
  keyring: Keyring
  cookieKeys: readonly string[]
  accountOf: ProviderAccountOf
  /** The claims features add, each under its own scope, with what the consent page says of it. */
  addedClaims: AddedClaims
  sessions: Sessions
  /** The hub's consent log (the privacy feature's): consent decisions are recorded there. */
  privacy: ConsentLog
  audit: AuditRequest
  assets: PageAssets
  /** Whether the hub keeps its own accounts: the pages' navigation offers the account page then. */
  accountPages: boolean
  behindProxy: boolean
  now: () => Date
}

const hide = true
export const INTERACTION_NOT_FOUND = 'This sign-in has expired or was started in another browser: start again from the application'
export const UNKNOWN_CLIENT = 'The application asking to sign you in is no longer registered'
const InteractionParams = Type.Object({ uid: Type.String() })
const ConsentBody = Type.Object({ decision: Type.Unsafe<'allow' | 'deny'>({ type: 'string', enum: ['allow', 'deny'] }) })
/** What the mount hands the provider about a request it forwards: read by the provider's callbacks. */
interface ForwardedRequest {
  request: FastifyRequest
  hubSession: ActiveSession | null
  pageContext: PageContext
  /** Set when the provider ended its session (RP-initiated logout): the hub session ends too. */
  loggedOut?: boolean
}

/**
 * The OpenID Connect provider inside the hub: its endpoints under /oidc and discovery, handed to
 * oidc-provider (a Koa application) as raw Node requests; its sign-in and consent steps, which
 * are the hub's own pages; and the person's connected applications under /api/account.
 */
export async function oidcProviderRoutes(app: App, options: OidcProviderRoutesOptions) {
  const { keyring, sessions, clients, privacy, audit, now } = options
  /** The scopes the consent page can name; any other requested scope is refused by the provider. */
  const consentScopes = providerScopes(options.addedClaims)
  const addedScopeText = new Map(options.addedClaims.sources.map(({ scope, consent }) => [scope, consent]))
  /** What the consent page says a scope gives: the provider's own wording, or the feature's that adds it. */
  const scopeText = (scope: string, language: Language, t: OidcTranslate) =>
    addedScopeText.get(scope)?.[language] ?? t(`consent.scope.${scope}` as Parameters<OidcTranslate>[0])
  const forwarded = new WeakMap<IncomingMessage, ForwardedRequest>()
  const forwardedOf = (raw: IncomingMessage): ForwardedRequest => {
    const state = forwarded.get(raw)
    if (!state) throw new Error('The provider was reached other than through the hub')
    return state
  }
  const hubSessionOf = (request: FastifyRequest) => sessions.validate(request.cookies[AUTH_COOKIE], now())
  if (options.behindProxy) {
    // Behind a trusted proxy the provider (Koa, `proxy` on) takes its scheme and host from
    // X-Forwarded-Proto and -Host, and the client from X-Forwarded-For's first address: the URLs of
    // its endpoints and its cookies' Secure follow them. It is told what the hub decided instead,
    // HUB_PUBLIC_URL and `request.ip`, so a proxy that sends no X-Forwarded-Proto (nginx, unless
    // told) or passes on what a client wrote changes nothing.
    const publicUrl = new URL(options.issuer)
    app.addHook('onRequest', (request, _reply, done) => {
      Object.assign(request.raw.headers, { 'x-forwarded-proto': publicUrl.protocol.slice(0, -1), 'x-forwarded-host': publicUrl.host, 'x-forwarded-for': request.ip })
      done()
    })
  }

  let current:
    | {
        keys: string
        provider: Provider
        handle: ReturnType<Provider['callback']>
        discovery?: Promise<DiscoveryDocument>
        rendered?: DiscoveryDocument
        /** The keyring's published set when this provider was last asked for: the same object until the keys change. */
        published: object
      }
    | undefined
  let library: OidcProviderLibrary | undefined
  /**
   * oidc-provider reads its keys once: a rotated keyring gets a new provider (its state is all in
   * the database). The library itself is imported by the first request that needs a provider.
   */
  const currentProvider = async () => {
    if (!library) {
      library = await loadOidcProvider()
      for (const { text, reviewed } of library.notices) app.log[reviewed ? 'debug' : 'warn']({ library: 'oidc-provider' }, text)
    }
    const published = keyring.publicJwks(now())
    const keys = keyring
      .privateJwks(now())
      .map((key) => key.kid)
      .join(' ')
    if (current?.keys !== keys) {
      const built = providerWithHubHooks(library)
      current = { keys, provider: built, handle: built.callback(), published }
    }
    current.published = published
    return current
  }
  const provider = async (): Promise<Provider> => (await currentProvider()).provider
  /** The current provider's discovery document, rendered at its first request: a rotation renders the next provider's. */
  const discoveryDocument = async (): Promise<DiscoveryDocument> => {
    const built = await currentProvider()
    // A failed rendering is not kept: the next request tries again.
    built.discovery ??= renderDiscovery(built.handle, options.issuer).then(
      (rendered) => (built.rendered = rendered),
      (error: unknown) => {
        built.discovery = undefined
        throw error
      }
    )
    return built.discovery
  }
  app.addHook('onClose', startEndingProviderSessionsOfEndedHubSessions({ db: options.db, provider, logger: app.log, now }))
  const providerWithHubHooks = (loaded: OidcProviderLibrary): Provider => {
    const built = buildHubProvider(loaded, {
      ...options,
      hubSessionOf: (raw) => forwardedOf(raw).hubSession,
      pageContextOf: (raw) => forwardedOf(raw).pageContext
    })
    built.on('end_session.success', (ctx) => {
      forwardedOf((ctx as { req: IncomingMessage }).req).loggedOut = true
    })
    built.use(async (ctx, next) => {
      await next()
      // A path under /oidc that is no endpoint of the provider: the hub's own not-found answer, not Koa's text.
      if (ctx.status === 404 && ctx.body == null) {
        ctx.body = { error: `Route ${ctx.method} ${ctx.req.url?.split('?')[0]} not found` }
        ctx.status = 404
      }
      const state = forwarded.get(ctx.req)
      // Before the response is written, so the browser's next request finds the hub session gone.
      if (state?.loggedOut && state.hubSession) {
        await sessions.revoke(state.hubSession.id)
        await audit(state.request, { userId: state.hubSession.userId, type: 'signout' })
      }
      // Introspection reads no account; a disabled or deleted one's tokens are inactive all the same.
      if (ctx.oidc?.route === 'introspection') await refuseIntrospectionOfUnusableAccounts(ctx)
      // The provider's self-submitting forms (logout without a session, response_mode=form_post) lead to the application.
      const target = formTargetOf(ctx)
      if (target) ctx.set('content-security-policy', policyWithFormTarget(String(ctx.response.get('content-security-policy')), target))
    })
    return built
  }
  const refuseIntrospectionOfUnusableAccounts = async (ctx: { body: unknown }) => {
    const body = ctx.body as { active?: boolean; sub?: string; client_id?: string } | undefined
    if (!body?.active || body.sub === undefined) return
    // Gone, disabled, or no longer in the groups the client is limited to: as userinfo refuses it.
    const usable = (await options.accountOf(body.sub)) !== undefined && (body.client_id === undefined || (await clients.allows(body.client_id, body.sub)))
    if (!usable) ctx.body = { active: false }
  }

  const pageContextOf = (request: FastifyRequest, reply: FastifyReply, signedIn: boolean): PageContext => {
    const language = chooseLanguage(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language'])
    reply.header('content-language', language)
    return { language, t: translatorFor(language), nonce: reply.cspNonce.script, assets: options.assets, currentPath: request.url, signedIn, accountPages: options.accountPages }
  }

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const hubSession = await hubSessionOf(request)
    forwarded.set(request.raw, { request, hubSession, pageContext: pageContextOf(request, reply, hubSession !== null) })
    const { handle } = await currentProvider()
    // The provider writes the response itself; the headers set so far (security headers) go with
    // it, and the ones the hub's onSend hook would add, which a hijacked reply skips.
    reply.header('x-request-id', request.id).header('cache-control', 'no-store')
    reply.hijack()
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[])
    }
    await handle(request.raw, reply.raw)
  }

  // The provider reads request bodies itself: these routes leave them unread.
  await app.register(async function providerEndpoints(endpoints) {
    endpoints.removeAllContentTypeParsers()
    endpoints.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))
    // A fixed document, written by the provider once per key set and sent from memory (issue 32):
    // an ordinary hub route, so the Host check, security headers, CORS and request id apply as to
    // any other; `no-store` as the provider's endpoints have always been sent. Its answer is then
    // replayed before routing while the provider that wrote it is the current one
    // (kernel/pipeline/fixed-documents.ts).
    const renderedDiscovery = () => (current?.published === keyring.publicJwks(now()) ? current.rendered : undefined)
    endpoints.get(DISCOVERY_PATH, { schema: { hide }, config: { fixedDocument: renderedDiscovery } }, async (_request, reply) => {
      const { body, contentType } = await discoveryDocument()
      return reply.header('cache-control', 'no-store').type(contentType).send(body)
    })
    // Its endpoints authenticate their clients, and its forms carry their own proof (docs/oidc.md).
    endpoints.all(`${OIDC_PATH_PREFIX}/*`, { config: { csrf: false }, schema: { hide } }, forward)
  })
  // `/oidc` itself, which no endpoint takes, answers 404 outside the CSRF check as the endpoints below it.
  app.unknownPaths(OIDC_PATH_PREFIX, { csrf: false })

  await app.register(async function interactions(pages) {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    })

    /** The step the provider asks for: sign-in is the hub session; consent is asked of third-party clients only. */
    pages.get<{ Params: { uid: string } }>(`${OIDC_PATH_PREFIX}/interaction/:uid`, { schema: { hide, params: InteractionParams } }, async (request, reply) => {
      const details = await providerInteraction(request, reply)
      if (!details) {
        const again = await sameRequestAgain(request, reply)
        if (again === undefined) throw badRequest(INTERACTION_NOT_FOUND)
        return reply.redirect(again, 303)
      }
      const hubSession = await hubSessionOf(request)
      if (!hubSession) return reply.redirect(loginPathReturningTo(interactionPath(details.uid)), 303)
      if (details.prompt.name === 'login' || details.session?.accountId !== hubSession.userId) {
        return finish(request, reply, details, { login: { accountId: hubSession.userId } })
      }
      const client = await clients.find(details.params.client_id)
      if (!client) throw notFound(UNKNOWN_CLIENT)
      if (details.prompt.name === NOT_ADMITTED_PROMPT) {
        // Said in the hub's words first; the application hears access_denied when the person goes back to it.
        const context = pageContextOf(request, reply, true)
        reply.header('content-security-policy', policyWithFormTarget(contentSecurityPolicy(reply.cspNonce), details.params.redirect_uri))
        const page = <NotAdmittedPage context={context} t={oidcTranslatorFor(context.language)} clientName={client.name} action={`${interactionPath(details.uid)}/not-admitted`} />
        return reply.code(403).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(pageHtml(page))
      }
      const scopes = requestedScopes(details, consentScopes)
      if (client.firstParty || (await consentRemembered(hubSession.userId, client.id, scopes))) {
        return finish(request, reply, details, { consent: { grantId: await grantScopes(details, hubSession.userId, scopes) } })
      }
      const context = pageContextOf(request, reply, true)
      const t = oidcTranslatorFor(context.language)
      // The form leads to the application, and the page shows its logo: this page's CSP allows both, by their exact address.
      const policy = policyWithImages(policyWithFormTarget(contentSecurityPolicy(reply.cspNonce), details.params.redirect_uri), client.logoUrl === null ? [] : [client.logoUrl])
      reply.header('content-security-policy', policy)
      const scopeTexts = scopes.map((scope) => scopeText(scope, context.language, t))
      const page = (
        <ConsentPage context={context} t={t} clientName={client.name} logoUrl={client.logoUrl} scopeTexts={scopeTexts} action={`${interactionPath(details.uid)}/consent`} />
      )
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(pageHtml(page))
    })

    pages.post<{ Params: { uid: string }; Body: { decision: 'allow' | 'deny' } }>(
      `${OIDC_PATH_PREFIX}/interaction/:uid/consent`,
      // Bound to the interaction cookie and the person's hub session instead of the CSRF header.
      { config: { csrf: false }, schema: { hide, params: InteractionParams, body: ConsentBody } },
      async (request, reply) => {
        const details = await interactionOf(request, reply)
        const hubSession = await hubSessionOf(request)
        // The interaction cookie (SameSite=Lax, this uid's path) and the same person's hub session prove the form is theirs.
        if (!hubSession || details.prompt.name !== 'consent' || details.session?.accountId !== hubSession.userId) {
          return reply.redirect(interactionPath(details.uid), 303)
        }
        const scopes = requestedScopes(details, consentScopes)
        const granted = request.body.decision === 'allow'
        const decision = { purpose: consentPurposeOf(details.params.client_id), granted, version: scopes.join(' ') }
        await privacy.recordConsent(hubSession.userId, decision, requestOrigin(request))
        const result = granted
          ? { consent: { grantId: await grantScopes(details, hubSession.userId, scopes) } }
          : { error: 'access_denied', error_description: 'The person declined to sign in to the application' }
        return finish(request, reply, details, result)
      }
    )
  })

  /** The same decision as a refused consent, for a person the client's groups do not admit. */
  await app.register(async function notAdmitted(pages) {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}))
    pages.post<{ Params: { uid: string } }>(
      `${OIDC_PATH_PREFIX}/interaction/:uid/not-admitted`,
      // Bound to the interaction cookie and the person's hub session, as the consent form is.
      { config: { csrf: false }, schema: { hide, params: InteractionParams } },
      async (request, reply) => {
        const details = await interactionOf(request, reply)
        const hubSession = await hubSessionOf(request)
        if (!hubSession || details.prompt.name !== NOT_ADMITTED_PROMPT || details.session?.accountId !== hubSession.userId) {
          return reply.redirect(interactionPath(details.uid), 303)
        }
        return finish(request, reply, details, { error: 'access_denied', error_description: 'The person is in none of the groups this application is limited to' })
      }
    )
  })

  /**
   * The sign-in step this browser is in: its interaction cookie names it, and only on this path.
   * Undefined when the provider answers for none (no cookie, no such interaction, or its session
   * gone or changed hands).
   */
  const providerInteraction = async (request: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails | undefined> => {
    try {
      return await (await provider()).interactionDetails(request.raw, reply.raw)
    } catch (error) {
      if ((error as Error).name === 'SessionNotFound') return undefined
      throw error
    }
  }
  const interactionOf = async (request: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails> => {
    const details = await providerInteraction(request, reply)
    if (!details) throw badRequest(INTERACTION_NOT_FOUND)
    return details
  }
  /**
   * The authorization request of an interaction the provider no longer answers for although it is
   * stored and this browser started it: its provider session ended on the way (the round that ends
   * the provider sessions of ended hub sessions ran between the request and this page), or now
   * belongs to someone else. Sent again, the request meets the browser as it is now: asked to sign
   * in, rather than told to start again from the application. Undefined for any other interaction.
   */
  const sameRequestAgain = async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<string | undefined> => {
    const loaded = await provider()
    // The interaction cookie, signed with the provider's keys, names the one this browser started.
    const started = loaded.createContext(request.raw, reply.raw).cookies.get(loaded.cookieName('interaction'), { signed: true })
    const interaction = started === request.params.uid ? await loaded.Interaction.find(started) : undefined
    if (!interaction) return undefined
    const params = Object.entries(interaction.params).filter((param): param is [string, string] => typeof param[1] === 'string')
    return `${OIDC_PATH_PREFIX}/auth?${new URLSearchParams(params).toString()}`
  }
  const finish = async (request: FastifyRequest, reply: FastifyReply, details: InteractionDetails, result: Record<string, unknown>) => {
    const next = await (await provider()).interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: details.prompt.name !== 'login' })
    return reply.redirect(next, 303)
  }
  const grantScopes = async (details: InteractionDetails, accountId: string, scopes: string[]): Promise<string> => {
    const { Grant } = await provider()
    const grant = (details.grantId ? await Grant.find(details.grantId) : undefined) ?? new Grant({ accountId, clientId: details.params.client_id })
    grant.addOIDCScope(scopes.join(' '))
    const missingClaims = details.prompt.details.missingOIDCClaims
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims as string[])
    return grant.save()
  }
  /** The last decision recorded for the client allowed at least these scopes. */
  const consentRemembered = async (userId: string, clientId: string, scopes: string[]): Promise<boolean> => {
    const last = (await privacy.consents(userId)).current[consentPurposeOf(clientId)]
    if (!last?.granted) return false
    const allowed = new Set((last.version ?? '').split(' '))
    return scopes.every((scope) => allowed.has(scope))
  }

  await app.register(connectedApplicationRoutes, { connectedApplications: options.connectedApplications, privacy })
}

function requestedScopes(details: InteractionDetails, consentScopes: readonly string[]): string[] {
  const requested = new Set(String(details.params.scope ?? '').split(' '))
  return consentScopes.filter((scope) => requested.has(scope))
}
