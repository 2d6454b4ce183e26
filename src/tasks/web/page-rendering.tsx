import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { VNode } from 'preact'
import { render } from 'preact-render-to-string'
import { LANGUAGE_COOKIE, chooseLanguage } from '../../hub/kernel/language/language.js'
import type { BrowserSessionCookies, SignedInRequest } from './browser-session.js'
import { tasksTranslator } from './messages.js'
import { MessagePage, type TasksPageContext } from './views.js'

export interface PageRenderingOptions {
  cookies: BrowserSessionCookies
  assets: { stylesheet: string; script: string }
  hubUrl: string
  /** The pages' Content-Security-Policy admitting the page script by this nonce. */
  policyWithNonce: (nonce: string) => string
}

export type PageRendering = ReturnType<typeof pageRendering>

/** The page language (the shared `lang` cookie, else Accept-Language), the page shell's data and policy, and sending a page. */
export function pageRendering({ cookies, assets, hubUrl, policyWithNonce }: PageRenderingOptions) {
  const languageOf = (request: FastifyRequest) => chooseLanguage(request.cookies[LANGUAGE_COOKIE], request.headers['accept-language'])
  function contextOf(request: FastifyRequest, reply: FastifyReply, session: SignedInRequest): TasksPageContext & { csrfToken: string }
  function contextOf(request: FastifyRequest, reply: FastifyReply, session: null): TasksPageContext
  function contextOf(request: FastifyRequest, reply: FastifyReply, session: SignedInRequest | null): TasksPageContext {
    const language = languageOf(request)
    reply.header('content-language', language)
    const csrfToken = session === null ? null : cookies.csrfTokenFor(request, reply, session)
    // Every page gets a fresh nonce: its script tag carries it, and only this response's policy names it.
    const scriptNonce = randomBytes(16).toString('base64')
    reply.header('content-security-policy', policyWithNonce(scriptNonce))
    return { language, t: tasksTranslator(language), assets, scriptNonce, currentPath: request.url, csrfToken, hubUrl }
  }

  // Pages show personal data: never stored by a shared cache or the browser's back-forward store.
  const send = (reply: FastifyReply, page: VNode) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(`<!doctype html>${render(page)}`)

  return {
    languageOf,
    contextOf,
    send,
    /** A form without the CSRF token of this session: 403, and a way back to a page with a fresh one. */
    refusedForm(request: FastifyRequest, reply: FastifyReply, session: SignedInRequest) {
      const context = contextOf(request, reply, session)
      const { t } = context
      return send(reply.code(403), <MessagePage context={context} title={t('error.csrf')} text={t('error.csrf')} link={{ href: '/', label: t('tasks.title') }} />)
    }
  }
}
