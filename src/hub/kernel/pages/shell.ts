import type { FastifyReply, FastifyRequest } from 'fastify'
import type { VNode } from 'preact'
import type { TObject } from 'typebox'
import type { ApplicationNames } from './application-names.js'
import type { Language } from '../language/language.js'
import type { PageContext } from './layout.js'

/** The signed-in person behind a page request. */
export interface PageUser {
  userId: string
  email: string
}

/** The signed-in session behind a page request. */
export interface PageSession extends PageUser {
  sessionId: string
}

/**
 * What the kernel's page shell lends a feature's pages: the page context (language, translator,
 * nonce, assets), the session, the application names and sending a page. Made once at start.
 */
export interface PageShell {
  /** The live session of a request, or null when its auth cookie is missing, forged, expired or revoked. */
  sessionOf: (request: FastifyRequest) => Promise<PageSession | null>
  /**
   * The page's context; sets `content-language`. `accountLocale`: the account's chosen language
   * when the page has already read it (null for no choice), so it is not read twice.
   */
  contextOf: (request: FastifyRequest, reply: FastifyReply, session: PageSession | null, accountLocale?: string | null) => Promise<PageContext>
  /** Every application a page may name, with the OpenID Connect clients as registered now. */
  applicationNamesNow: () => Promise<ApplicationNames>
  /** HUB_APPS display names, without the OpenID Connect clients. */
  applicationNames: ApplicationNames
  /** The sign-in methods' state for the recent-sign-in dialog; empty under an external provider. */
  signInMethodsOf: (userId: string) => Promise<SignInMethodState[]>
  /**
   * Without HUB_SMTP_URL mail is written to DATA_DIR/outbox, not sent: the command that reads it,
   * which the pages promising a mail show. Undefined when mail is sent.
   */
  mailOutbox: string | undefined
}

/** What a page's `render` is given: the request, its reply, the session and the shell. */
export interface PageRequest<Session extends PageSession | null> {
  request: FastifyRequest
  reply: FastifyReply
  session: Session
  shell: PageShell
}

interface PageDeclaration {
  path: string
  /** The query the page reads; a page answers a page, never a JSON 400, so its values are `Unknown`. */
  querystring?: TObject
}

/** A page of the administrator's console: signed in, and anyone but an administrator gets the 404 of a path that does not exist. */
interface ConsolePageDeclaration extends PageDeclaration {
  signedIn: true
  administrators: true
}

/**
 * A page a feature adds (docs/architecture.md). A signed-in page is behind the shell's guard, which
 * sends a request without a live session to the login page, coming back here afterwards; an open
 * one anyone opens (the session, if any, is read for the navigation). `render` returns the page to
 * send, or the reply once it has redirected.
 */
export type HubPage =
  | (PageDeclaration & { signedIn: true; administrators?: undefined; render(page: PageRequest<PageSession>): Promise<VNode | FastifyReply> })
  | (ConsolePageDeclaration & { render(page: PageRequest<PageSession>): Promise<VNode | FastifyReply> })
  | (PageDeclaration & { signedIn: false; administrators?: undefined; render(page: PageRequest<PageSession | null>): Promise<VNode | FastifyReply> })

/**
 * A part of another feature's page (the account page's connected applications, say): reads for the
 * person, then renders. `reply` is the page's, for a section that must widen its CSP (an
 * application's logo, policyWithImages).
 */
export type PageSection = (session: PageSession, reply: FastifyReply) => Promise<(context: PageContext) => VNode>

/**
 * A way of signing in a feature adds beside the password (two-step sign-in, passkeys): its forms
 * on the login page, and, read for a signed-in person, its section of the security page and its
 * form in the recent-sign-in dialog.
 */
export interface SignInMethodPages {
  /** Its forms under the login page's password form, in the page's language; `next`, where to go after signing in. */
  loginForms: (language: Language, next: string | undefined) => VNode
  stateOf: (userId: string) => Promise<SignInMethodState>
}

export interface SignInMethodState {
  /** Its section of the security page; with `addressVerified` false nothing may be added yet (docs/account.md). */
  section: (context: PageContext, addressVerified: boolean) => VNode
  /**
   * Its form in the "confirm it is you" dialog, in the page's language, when it can confirm a
   * recent sign-in now; `replacesPassword` when the API then refuses the password alone.
   */
  recentSignIn?: { form: (language: Language) => VNode; replacesPassword: boolean }
}
