/**
 * The part of oidc-provider 9 (which ships no types) that the hub uses. Kept narrow: a call
 * outside it is a compile error rather than an `any`.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export type AdapterPayload = Record<string, unknown> & {
    accountId?: string
    clientId?: string
    grantId?: string
    uid?: string
    userCode?: string
    consumed?: number
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export interface KoaContextWithOIDC {
    req: IncomingMessage
    res: ServerResponse
    method: string
    path: string
    status: number
    body: unknown
    type: string
    set(name: string, value: string | string[]): void
    response: { get(name: string): unknown }
    oidc: {
      route: string
      client?: { clientId: string; redirectUriAllowed(uri: string): boolean; postLogoutRedirectUriAllowed(uri: string): boolean }
      session?: { accountId?: string; state?: { secret?: string } }
      params?: Record<string, unknown>
      entities: Record<string, unknown>
      result?: Record<string, unknown>
    }
  }

  export type ClaimsFunction = (use: string, scope: string) => Promise<Record<string, unknown>> | Record<string, unknown>
  export interface Account {
    accountId: string
    claims: ClaimsFunction
  }

  export interface InteractionDetails {
    uid: string
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> }
    params: Record<string, unknown> & { client_id: string; scope?: string; redirect_uri?: string }
    session?: { accountId: string; uid: string }
    grantId?: string
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string })
    jti: string
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    save(): Promise<string>
    destroy(): Promise<void>
    static find(id: string): Promise<Grant | undefined>
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: KoaContextWithOIDC) => Promise<boolean> | boolean)
    /** `error`: what the application receives when the request said `prompt=none`. */
    constructor(reason: string, description: string, error: string, check: (ctx: KoaContextWithOIDC) => Promise<boolean> | boolean)
    static REQUEST_PROMPT: true
    static NO_NEED_TO_PROMPT: false
  }

  export interface Prompt {
    name: string
    checks: Check[] & { add(check: Check, index?: number): void }
  }

  export const interactionPolicy: {
    base(): Prompt[] & { get(name: string): Prompt | undefined; add(prompt: Prompt, index?: number): void }
    Check: typeof Check
    Prompt: new (options: { name: string; requestable: boolean }, ...checks: Check[]) => Prompt
  }

  export const errors: {
    InvalidGrant: new (description?: string) => Error
    InvalidClientAuth: new (detail?: string) => Error
  }

  export type Configuration = Record<string, unknown>

  export interface ProviderClient {
    clientId: string
    backchannelLogoutUri?: string
    /** Signs a logout token for `sub` (with `sid` when the client requires it) and posts it to the client's back-channel logout URI. */
    backchannelLogout(sub: string, sid: string | undefined): Promise<void>
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration)
    /** The context of the request being answered (oidc-provider's AsyncLocalStorage), outside one undefined. */
    static readonly ctx: KoaContextWithOIDC | undefined
    proxy: boolean
    Grant: typeof Grant
    Client: { prototype: { compareClientSecret(actual: string): Promise<boolean> | boolean; readonly clientAuthMethod: string }; find(id: string): Promise<ProviderClient | undefined> }
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void
    on(event: string, listener: (...args: unknown[]) => void): void
    /** An interaction as stored, by its uid, whatever became of its session. */
    Interaction: { find(uid: string): Promise<{ params: Record<string, unknown> } | undefined> }
    cookieName(type: 'interaction' | 'resume' | 'session'): string
    /** Koa's context of a request, for its cookies signed with the provider's keys. */
    createContext(req: IncomingMessage, res: ServerResponse): { cookies: { get(name: string, options: { signed: boolean }): string | undefined } }
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
  }
}
