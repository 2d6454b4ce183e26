import type { FastifyReply, FastifyRequest } from 'fastify'
import type { VNode } from 'preact'
import { render } from 'preact-render-to-string'
import { Type } from 'typebox'
import type { App } from '../../../shared/http/server.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { acceptFormBodies } from '../../kernel/http/form-bodies.js'
import type { ConsoleSection } from '../../kernel/pages/console.js'
import type { PageContext } from '../../kernel/pages/layout.js'
import type { HubPage, PageShell } from '../../kernel/pages/shell.js'
import type { RecentSignIn } from '../../kernel/sessions/recent-sign-in.js'
import { policyWithImages } from '../../kernel/security/security-headers.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { auditClientChange, httpErrorOf } from './admin-routes.js'
import { type OidcClient, OidcClientError, type OidcClients } from './clients.js'
import {
  APPLICATIONS_PATH,
  APPLICATION_NOTICES,
  type ApplicationNotice,
  ApplicationPage,
  ApplicationsPage,
  type ApplicationSettingsForm,
  type NewApplicationForm,
  RemoveApplicationPage,
  SecretPage,
  applicationPath,
  refusalText,
  settingsOfForm
} from './console-views.js'
import { clientsTranslator } from './messages.js'

/** The console's page that confirms who holds the session, then sends the person back to `next`. */
export const CONFIRM_PATH = '/admin/confirm'

/** The console's Applications section in its navigation. */
export const APPLICATIONS_SECTION: ConsoleSection = { path: APPLICATIONS_PATH, label: (language) => clientsTranslator(language)('clients.section') }

// A page answers a page, never a JSON 400: odd values are ignored where they are read.
const NoticeQuery = Type.Object({ notice: Type.Optional(Type.Unknown()) })
const ClientParams = Type.Object({ clientId: Type.String() })
const FormBody = Type.Object({}, { additionalProperties: Type.Unknown() })

/** Lets the page show the clients' logos: this page's CSP allows each by its exact address. */
const allowLogos = (reply: FastifyReply, clients: readonly OidcClient[]) =>
  reply.header(
    'content-security-policy',
    policyWithImages(
      String(reply.getHeader('content-security-policy')),
      clients.flatMap((client) => (client.logoUrl === null ? [] : [client.logoUrl]))
    )
  )

const noticeOf = (query: unknown): ApplicationNotice | undefined => {
  const notice = (query as { notice?: unknown }).notice
  return typeof notice === 'string' && Object.hasOwn(APPLICATION_NOTICES, notice) ? (notice as ApplicationNotice) : undefined
}
/** The hub's answer to a path that does not exist: an application that does not (or no longer does). */
const notFoundPage = (reply: FastifyReply) => {
  reply.callNotFound()
  return reply
}
const clientIdOf = (request: FastifyRequest) => (request.params as { clientId: string }).clientId

/** The section's pages (GET); the shell has checked the session and that it is an administrator's. */
export function applicationsConsolePages(clients: OidcClients, sections: readonly ConsoleSection[]): HubPage[] {
  return [
    {
      path: APPLICATIONS_PATH,
      signedIn: true,
      administrators: true,
      querystring: NoticeQuery,
      async render({ request, reply, session, shell }) {
        const context = await shell.contextOf(request, reply, session)
        const all = await clients.list()
        allowLogos(reply, all)
        return <ApplicationsPage context={context} sections={sections} csrf={reply.formCsrfToken()} clients={all} notice={noticeOf(request.query)} groups={await clients.groupNames()} />
      }
    },
    {
      path: `${APPLICATIONS_PATH}/:clientId`,
      signedIn: true,
      administrators: true,
      querystring: NoticeQuery,
      async render({ request, reply, session, shell }) {
        const client = await clients.find(clientIdOf(request))
        if (!client) return notFoundPage(reply)
        const context = await shell.contextOf(request, reply, session)
        allowLogos(reply, [client])
        return <ApplicationPage context={context} sections={sections} csrf={reply.formCsrfToken()} client={client} notice={noticeOf(request.query)} groups={await clients.groupNames()} />
      }
    },
    {
      path: `${APPLICATIONS_PATH}/:clientId/remove`,
      signedIn: true,
      administrators: true,
      async render({ request, reply, session, shell }) {
        const client = await clients.find(clientIdOf(request))
        if (!client) return notFoundPage(reply)
        const context = await shell.contextOf(request, reply, session)
        return <RemoveApplicationPage context={context} sections={sections} csrf={reply.formCsrfToken()} client={client} />
      }
    }
  ]
}

export interface ApplicationsConsoleRoutesOptions {
  clients: OidcClients
  audit: AuditRequest
  recentSignIn: Pick<RecentSignIn, 'isRecent'>
  sections: readonly ConsoleSection[]
  /** The kernel's page shell: the context of a page answered to a form. */
  shell: PageShell
  /** The issuer applications are configured with, shown beside a new secret. */
  issuer: string
  now: () => Date
}

/** One value of a form field (the last, if repeated), or ''. */
const fieldOf = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown>)[name]
  const last = Array.isArray(value) ? value.at(-1) : value
  return typeof last === 'string' ? last : ''
}
/** Every value of a form field (checkboxes of one name), each a string. */
const fieldsOf = (body: unknown, name: string): string[] => [(body as Record<string, unknown>)[name] ?? []].flat().filter((value): value is string => typeof value === 'string')
/** Group names as compared: whatever their case, in one order. */
const keysOf = (names: readonly string[]) => names.map((name) => name.toLowerCase()).sort()
/** A textarea's lines, trimmed, without empty ones. */
const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')

/**
 * The section's forms (POST), which work without script (docs/administration.md): the token in
 * the `_csrf` field, a change only after a recent sign-in (else to the console's confirmation,
 * coming back to the page), then back to the page with `?notice=`. A refused form is the same
 * page again with what was typed and the reason in the page's language. A secret is shown in the
 * answer to the POST that made it, so it never travels in a URL.
 */
export async function applicationsConsoleRoutes(app: App, options: ApplicationsConsoleRoutesOptions) {
  const { clients, audit, recentSignIn, sections, now } = options
  acceptFormBodies(app)
  const config = { session: 'required', role: 'admin', csrf: 'form' } as const
  const hide = true

  /** The page's context, as the shell would make it for this administrator's GET of `path`. */
  const contextOf = async (request: FastifyRequest, reply: FastifyReply, path: string): Promise<PageContext> => {
    const { id: sessionId, userId, email } = sessionOf(request)
    return { ...(await options.shell.contextOf(request, reply, { sessionId, userId, email })), currentPath: path }
  }
  /** A page as the answer to a form (a refusal, a secret): never stored by any cache. */
  const sendPage = (reply: FastifyReply, status: number, page: VNode) =>
    reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(`<!doctype html>${render(page)}`)
  /** Whether the change may go ahead; when not, the reply has been sent to confirm first. */
  const confirmedRecently = async (request: FastifyRequest, reply: FastifyReply, back: string): Promise<boolean> => {
    if (await recentSignIn.isRecent(sessionOf(request).id)) return true
    await reply.redirect(`${CONFIRM_PATH}?next=${encodeURIComponent(back)}`, 303)
    return false
  }
  /** The status the admin API answers the same refusal with. */
  const refusalStatus = (error: OidcClientError) => httpErrorOf(error).statusCode

  app.post(APPLICATIONS_PATH, { config, schema: { hide, body: FormBody } }, async (request, reply) => {
    if (!(await confirmedRecently(request, reply, APPLICATIONS_PATH))) return reply
    const body = request.body
    const form: NewApplicationForm = {
      name: fieldOf(body, 'name'),
      clientId: fieldOf(body, 'clientId').trim(),
      redirectUris: fieldOf(body, 'redirectUris'),
      public: fieldOf(body, 'kind') === 'public',
      firstParty: fieldOf(body, 'firstParty') === 'yes',
      allowedGroups: fieldsOf(body, 'allowedGroups'),
      logoUrl: fieldOf(body, 'logoUrl').trim(),
      idTokenAlg: fieldOf(body, 'idTokenAlg') || 'EdDSA',
      pkce: fieldOf(body, 'pkce') || 'required',
      authMethod: fieldOf(body, 'authMethod') || 'client_secret_basic'
    }
    let secret: string | null
    try {
      secret = await clients.add(
        {
          id: form.clientId,
          name: form.name.trim() === '' ? form.clientId : form.name,
          redirectUris: linesOf(form.redirectUris),
          postLogoutRedirectUris: [],
          public: form.public,
          firstParty: form.firstParty,
          allowedGroups: form.allowedGroups,
          ...settingsOfForm(form, form.public),
          ...(form.logoUrl === '' ? {} : { logoUrl: form.logoUrl })
        },
        now()
      )
    } catch (error) {
      if (!(error instanceof OidcClientError)) throw error
      const context = await contextOf(request, reply, APPLICATIONS_PATH)
      const refusal = refusalText(clientsTranslator(context.language), error, form.clientId)
      const page = <ApplicationsPage context={context} sections={sections} csrf={reply.formCsrfToken()} clients={await clients.list()} form={form} refusal={refusal} groups={await clients.groupNames()} />
      return sendPage(reply, refusalStatus(error), page)
    }
    const client = (await clients.find(form.clientId)) as OidcClient
    await auditClientChange(audit, request, 'client.added', client)
    if (secret === null) return reply.redirect(`${applicationPath(client.id)}?notice=added`, 303)
    const context = await contextOf(request, reply, applicationPath(client.id))
    return sendPage(reply, 200, <SecretPage context={context} sections={sections} client={client} secret={secret} issuer={options.issuer} replaced={false} />)
  })

  app.post(`${APPLICATIONS_PATH}/:clientId`, { config, schema: { hide, params: ClientParams, body: FormBody } }, async (request, reply) => {
    const path = applicationPath(request.params.clientId)
    const before = await clients.find(request.params.clientId)
    if (!before) return notFoundPage(reply)
    if (!(await confirmedRecently(request, reply, path))) return reply
    const body = request.body
    const form: ApplicationSettingsForm = {
      name: fieldOf(body, 'name'),
      redirectUris: fieldOf(body, 'redirectUris'),
      postLogoutRedirectUris: fieldOf(body, 'postLogoutRedirectUris'),
      backchannelLogoutUri: fieldOf(body, 'backchannelLogoutUri').trim(),
      firstParty: fieldOf(body, 'firstParty') === 'yes',
      allowedGroups: fieldsOf(body, 'allowedGroups'),
      logoUrl: fieldOf(body, 'logoUrl').trim(),
      idTokenAlg: fieldOf(body, 'idTokenAlg') || before.idTokenAlg,
      // A public client's form has no PKCE or method fields: they stay its own.
      pkce: fieldOf(body, 'pkce') || before.pkce,
      authMethod: fieldOf(body, 'authMethod') || before.authMethod
    }
    // The groups change only when the ticks differ from what the page showed: a client whose groups
    // were all deleted (nobody may use it) stays closed when its other settings are saved.
    const sameGroups = JSON.stringify(keysOf(form.allowedGroups)) === JSON.stringify(keysOf(before.allowedGroups))
    try {
      const { client, changed } = await clients.update(before.id, {
        name: form.name,
        redirectUris: linesOf(form.redirectUris),
        postLogoutRedirectUris: linesOf(form.postLogoutRedirectUris),
        backchannelLogoutUri: form.backchannelLogoutUri === '' ? null : form.backchannelLogoutUri,
        firstParty: form.firstParty,
        ...(sameGroups ? {} : { allowedGroups: form.allowedGroups }),
        ...settingsOfForm(form, before.public),
        logoUrl: form.logoUrl === '' ? null : form.logoUrl
      })
      if (changed.length > 0) await auditClientChange(audit, request, 'client.changed', client, { changed })
    } catch (error) {
      if (!(error instanceof OidcClientError)) throw error
      if (error.problem === 'unknown') return notFoundPage(reply)
      const context = await contextOf(request, reply, path)
      const refusal = refusalText(clientsTranslator(context.language), error, before.id)
      return sendPage(reply, refusalStatus(error), <ApplicationPage context={context} sections={sections} csrf={reply.formCsrfToken()} client={before} form={form} refusal={refusal} groups={await clients.groupNames()} />)
    }
    return reply.redirect(`${path}?notice=changed`, 303)
  })

  app.post(`${APPLICATIONS_PATH}/:clientId/secret`, { config, schema: { hide, params: ClientParams, body: FormBody } }, async (request, reply) => {
    const path = applicationPath(request.params.clientId)
    const client = await clients.find(request.params.clientId)
    if (!client) return notFoundPage(reply)
    if (!(await confirmedRecently(request, reply, path))) return reply
    let secret: string
    try {
      secret = await clients.rotateSecret(client.id)
    } catch (error) {
      if (!(error instanceof OidcClientError)) throw error
      if (error.problem === 'unknown') return notFoundPage(reply)
      const context = await contextOf(request, reply, path)
      const refusal = refusalText(clientsTranslator(context.language), error, client.id)
      return sendPage(reply, refusalStatus(error), <ApplicationPage context={context} sections={sections} csrf={reply.formCsrfToken()} client={client} refusal={refusal} groups={await clients.groupNames()} />)
    }
    await auditClientChange(audit, request, 'client.secret-rotated', client)
    const context = await contextOf(request, reply, path)
    return sendPage(reply, 200, <SecretPage context={context} sections={sections} client={client} secret={secret} issuer={options.issuer} replaced />)
  })

  app.post(`${APPLICATIONS_PATH}/:clientId/remove`, { config, schema: { hide, params: ClientParams, body: FormBody } }, async (request, reply) => {
    const client = await clients.find(request.params.clientId)
    if (!client) return notFoundPage(reply)
    if (!(await confirmedRecently(request, reply, `${applicationPath(client.id)}/remove`))) return reply
    if (!(await clients.remove(client.id))) return notFoundPage(reply)
    await auditClientChange(audit, request, 'client.removed', client)
    return reply.redirect(`${APPLICATIONS_PATH}?notice=removed`, 303)
  })
}
