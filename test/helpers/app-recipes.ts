import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { type JWTPayload, type ProtectedHeaderParameters, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import * as openid from 'openid-client'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { groupNameKey, joinGroups } from '../../src/hub/kernel/accounts/groups.js'
import { type TestDatabase, databaseUrlInSchema } from './databases.js'
import { uniqueEmail } from './hub-app.js'
import { CookieBrowser } from './oidc-relying-party.js'

/**
 * The recipes of docs/oidc.md ("Recipes: the applications people self-host") as tests: the
 * `clients:add` line is read from the page itself and run through the hub's command line, and each
 * application's OpenID Connect client is described by what it does, as its source shows.
 */

const DOC = new URL('../../docs/oidc.md', import.meta.url)

/** Splits a shell command line as `sh` would for the plain quoting the recipes use. */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let current: string | undefined
  let quote: '"' | "'" | undefined
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined
      else current = (current ?? '') + char
    } else if (char === '"' || char === "'") {
      quote = char
      current = current ?? ''
    } else if (/\s/.test(char)) {
      if (current !== undefined) words.push(current)
      current = undefined
    } else {
      current = (current ?? '') + char
    }
  }
  if (current !== undefined) words.push(current)
  return words
}

/**
 * Every `npm run hub -- clients:add ...` line of the recipe whose heading starts with
 * `application`, in page order, as the arguments after `--`.
 */
export function recipeCommands(application: string): string[][] {
  const text = fs.readFileSync(DOC, 'utf8')
  const start = text.indexOf(`\n### ${application}`)
  if (start < 0) throw new Error(`docs/oidc.md has no recipe for ${application}`)
  const end = text.indexOf('\n### ', start + 1)
  const section = text.slice(start, end < 0 ? undefined : end)
  const commands: string[][] = []
  for (const [, block = ''] of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const line = block.replace(/\\\n/g, ' ')
    for (const command of line.split('\n')) {
      const words = shellWords(command)
      const dashes = words.indexOf('--')
      if (words.slice(0, 3).join(' ') === 'npm run hub' && words[dashes + 1] === 'clients:add') commands.push(words.slice(dashes + 1))
    }
  }
  if (commands.length === 0) throw new Error(`The ${application} recipe has no clients:add line`)
  return commands
}

/**
 * Runs a recipe's `clients:add` line through the hub's command line, on the running hub's own
 * database; resolves to the secret it printed, or null for a public client.
 */
export async function registerByRecipe(handle: TestDatabase, args: string[]): Promise<string | null> {
  const out: string[] = []
  const err: string[] = []
  const databaseUrl = handle.databaseUrl && handle.schema ? databaseUrlInSchema(handle.databaseUrl, handle.schema).toString() : undefined
  const code = await runHubCli(args, {
    env: { DATA_DIR: handle.dataDir, HUB_PUBLIC_URL: 'https://hub.example', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    readStdin: async () => '',
    out: (line) => out.push(line),
    err: (line) => err.push(line)
  })
  if (code !== 0) throw new Error(`clients:add exited ${code}: ${err.join('\n')}`)
  return /^Client secret \(shown only now\): (\S+)$/m.exec(out.join('\n'))?.[1] ?? null
}

/** How an application's own OpenID Connect client behaves, as its source shows. */
export interface ApplicationClient {
  clientId: string
  /** The redirect URI exactly as the application sends it, in the authorization and the token request. */
  redirectUri: string
  scope: string
  tokenEndpointAuth: 'client_secret_basic' | 'client_secret_post' | 'none'
  pkce: boolean
  nonce: boolean
  /** The algorithms its check of the ID token's signature accepts; undefined: it decodes the token without one. */
  idTokenAlgorithms?: readonly string[]
  /** Pushes the authorization request first (RFC 9126), as OidcClient does when discovery lists the endpoint. */
  pushedAuthorization?: boolean
  /** Anything else it puts in the authorization request. */
  authorizationParameters?: Record<string, string>
}

/** The error the application was sent back with, and the hub's page the person saw first, if any. */
export interface Refused {
  refused: string
  page: string
}

export interface SignInResult {
  idToken: { header: ProtectedHeaderParameters; claims: JWTPayload & Record<string, unknown> }
  /** The userinfo answer, read as plain JSON as the applications read it. */
  userinfo: Record<string, unknown>
  discovery: openid.ServerMetadata
}

/**
 * A person's sign-in to an application through `browser` (signed in at the hub), with
 * openid-client behaving as that application's client: the code flow to the tokens, the ID token
 * checked as the application checks it, and userinfo. Allows the consent page if one is shown.
 * Resolves to `{ refused, page }` when the hub refuses.
 */
export async function signInThrough(
  issuer: string,
  app: ApplicationClient,
  secret: string | null,
  browser: CookieBrowser
): Promise<SignInResult | Refused> {
  const authentication =
    app.tokenEndpointAuth === 'none' ? openid.None() : app.tokenEndpointAuth === 'client_secret_post' ? openid.ClientSecretPost(secret ?? '') : openid.ClientSecretBasic(secret ?? '')
  const metadata = app.idTokenAlgorithms?.length === 1 ? { id_token_signed_response_alg: app.idTokenAlgorithms[0] } : undefined
  const config = await openid.discovery(new URL(issuer), app.clientId, metadata, authentication, { execute: [openid.allowInsecureRequests] })
  // The token request carries the redirect URI as the application wrote it (openid-client would
  // send the callback's own URL, normalised: `https://pve.example:8006/` for `https://pve.example:8006`).
  config[openid.customFetch] = (url, options) => {
    if (options.body instanceof URLSearchParams && options.body.has('redirect_uri')) options.body.set('redirect_uri', app.redirectUri)
    return fetch(url, options as RequestInit)
  }

  const pkceCodeVerifier = app.pkce ? openid.randomPKCECodeVerifier() : undefined
  const expectedState = openid.randomState()
  const expectedNonce = app.nonce ? openid.randomNonce() : undefined
  const parameters: Record<string, string> = {
    redirect_uri: app.redirectUri,
    scope: app.scope,
    state: expectedState,
    ...(expectedNonce ? { nonce: expectedNonce } : {}),
    ...(pkceCodeVerifier ? { code_challenge: await openid.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256' } : {}),
    ...app.authorizationParameters
  }
  const url = app.pushedAuthorization ? await openid.buildAuthorizationUrlWithPAR(config, parameters) : openid.buildAuthorizationUrl(config, parameters)

  let { left, page } = await browser.follow(url.href)
  // A page of the hub's on the way: the consent page (allowed), or the one saying the person may
  // not use the application, whose one button goes back to it.
  const shown = page
  const action = page ? /action="([^"]+\/(consent|not-admitted))"/.exec(page.html) : null
  if (!left && action?.[1]) ({ left, page } = await browser.postForm(new URL(action[1], issuer).href, action[2] === 'consent' ? { decision: 'allow' } : {}))
  if (!left) throw new Error(`The sign-in stopped at the hub: ${page?.status} ${page?.html.slice(0, 500)}`)
  const error = left.searchParams.get('error')
  if (error) return { refused: error, page: shown?.html ?? '' }

  const tokens = await openid.authorizationCodeGrant(config, left, {
    expectedState,
    ...(pkceCodeVerifier ? { pkceCodeVerifier } : {}),
    ...(expectedNonce ? { expectedNonce } : {})
  })
  const idToken = tokens.id_token ?? ''
  if (app.idTokenAlgorithms) {
    const jwks = (await (await fetch(config.serverMetadata().jwks_uri ?? '')).json()) as Parameters<typeof createLocalJWKSet>[0]
    await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer, audience: app.clientId, algorithms: [...app.idTokenAlgorithms] })
  }
  const userinfo = await fetch(config.serverMetadata().userinfo_endpoint ?? '', { headers: { authorization: `Bearer ${tokens.access_token}` } })
  if (userinfo.status !== 200) throw new Error(`userinfo: ${userinfo.status}`)
  return {
    idToken: { header: decodeProtectedHeader(idToken), claims: decodeJwt(idToken) },
    userinfo: (await userinfo.json()) as Record<string, unknown>,
    discovery: config.serverMetadata()
  }
}

export interface HouseholdMember {
  browser: CookieBrowser
  userId: string
  email: string
  name: string
}

/**
 * A person of the household, signed in at the hub in their own browser: a display name shown to
 * the family (so `name` is given), and a member of `groups` (made when missing).
 */
export async function householdMember(issuer: string, handle: TestDatabase, groups: readonly string[], name = 'Ada Lovelace'): Promise<HouseholdMember> {
  const browser = new CookieBrowser(issuer)
  const email = uniqueEmail('recipe')
  const userId = await browser.signUpAndIn(email)
  await handle.db.updateTable('users').set({ displayName: name }).where('id', '=', userId).execute()
  const shown = await browser.request(`${issuer}/api/privacy/settings`, {
    method: 'PUT',
    body: JSON.stringify({ visibility: { profile: 'family' } }),
    headers: { 'content-type': 'application/json', 'x-csrf-token': browser.cookies.get('service-csrf-token') ?? '' }
  })
  if (shown.status !== 200) throw new Error(`privacy settings: ${shown.status}`)
  const now = new Date()
  const groupIds: string[] = []
  for (const group of groups) {
    const existing = await handle.db.selectFrom('groups').select('id').where('nameKey', '=', groupNameKey(group)).executeTakeFirst()
    const id = existing?.id ?? randomUUID()
    if (!existing) {
      await handle.db
        .insertInto('groups')
        .values({ id, name: group, nameKey: groupNameKey(group), description: '', createdAt: now.toISOString(), updatedAt: now.toISOString() })
        .execute()
    }
    groupIds.push(id)
  }
  await joinGroups(handle.db, userId, groupIds, now)
  return { browser, userId, email, name }
}
