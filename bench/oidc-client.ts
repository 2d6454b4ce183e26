import { createHash, randomBytes } from 'node:crypto'
import type { RunningService } from './services.js'

/**
 * The relying party the bench plays at each provider, registered alike at both: public (no
 * secret), PKCE with S256, code and refresh grants. Its redirect URI is never fetched: the bench
 * reads the code from the redirect itself, as an application's callback would. A web
 * application's: a loopback one would make it a native application, which oidc-provider asks for
 * consent at every authorization (RFC 8252 8.6).
 */
export const BENCH_CLIENT = { id: 'bench-client', redirectUri: 'https://app.bench.example/callback' } as const
/** Both providers' answers then carry the subject alone, so userinfo does the same work at each. */
const SCOPE = 'openid'

/** A provider under load: everything else the client finds in its discovery document. */
export interface OidcPeer {
  name: 'Hearth' | 'Glewlwyd'
  service: RunningService
  discoveryUrl: string
  /** The signed-in browser's cookies, sent with each authorization request. */
  browserCookie: string
  /** What the provider needs besides the standard parameters to answer a signed-in browser at once. */
  authorizeParameters: Record<string, string>
}

export interface Endpoints {
  authorization: string
  token: string
  userinfo: string
  jwks: string
}

export interface Tokens {
  accessToken: string
  refreshToken: string
}

export async function endpointsOf(peer: OidcPeer): Promise<Endpoints> {
  const response = await fetch(peer.discoveryUrl)
  if (response.status !== 200) throw new Error(`${peer.name} discovery answered ${response.status}`)
  const metadata = (await response.json()) as Record<string, string | undefined>
  const endpoint = (name: string) => {
    const url = metadata[name]
    if (!url) throw new Error(`${peer.name} discovery names no ${name}`)
    return url
  }
  return { authorization: endpoint('authorization_endpoint'), token: endpoint('token_endpoint'), userinfo: endpoint('userinfo_endpoint'), jwks: endpoint('jwks_uri') }
}

/**
 * The browser's first authorization request: follows the provider's redirects through its own
 * steps (the hub's sign-in and first-party consent) to the callback, keeping every cookie set on
 * the way. Resolves to the cookies a signed-in browser then sends.
 */
export async function signInBrowser(peer: OidcPeer): Promise<string> {
  const jar = new Map(peer.browserCookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const))
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  let url = authorizationUrl(await endpointsOf(peer), peer, pkce()).href
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { headers: { cookie: cookieHeader() }, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';')
      const name = pair.slice(0, pair.indexOf('=')).trim()
      const value = pair.slice(pair.indexOf('=') + 1).trim()
      const cleared = value === '' || attributes.some((attribute) => /^\s*(max-age=0|expires=.*1970)/i.test(attribute))
      if (cleared) jar.delete(name)
      else jar.set(name, value)
    }
    const location = response.headers.get('location')
    if (response.status < 300 || response.status > 399 || !location) throw new Error(`${peer.name}: ${url} answered ${response.status} on the way to the callback`)
    url = new URL(location, url).href
    if (url.startsWith(BENCH_CLIENT.redirectUri)) {
      if (!new URL(url).searchParams.has('code')) throw new Error(`${peer.name} sent the browser back without a code: ${url}`)
      return cookieHeader()
    }
  }
  throw new Error(`${peer.name}: too many redirects on the way to the callback`)
}

/** Authorize (answered at once for the signed-in browser) → token, with PKCE S256, state and nonce. */
export async function codeFlow(peer: OidcPeer, endpoints: Endpoints): Promise<Tokens> {
  for (let retry = 1; ; retry++) {
    try {
      return await codeFlowOnce(peer, endpoints)
    } catch (error) {
      // Glewlwyd now and then fails to read a code it has just issued: its log says
      // "validate_authorization_code - Error executing j_query", and it answers invalid_code. Seen
      // in its first seconds on a busy machine, WAL mode or not (see glewlwyd.ts). Such a flow is
      // begun again, up to three times 100 ms apart, each time said on stderr; any other refusal
      // ends the run.
      if (retry > CODE_FLOW_RETRIES || !(error instanceof Error) || !error.message.includes('"invalid_code"')) throw error
      process.stderr.write(`${peer.name} did not find a code it had just issued (invalid_code); beginning the flow again (${retry}/${CODE_FLOW_RETRIES})\n`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

const CODE_FLOW_RETRIES = 3

async function codeFlowOnce(peer: OidcPeer, endpoints: Endpoints): Promise<Tokens> {
  const proof = pkce()
  const request = authorizationUrl(endpoints, peer, proof)
  const response = await fetch(request, { headers: { cookie: peer.browserCookie }, redirect: 'manual' })
  await response.body?.cancel()
  const location = response.headers.get('location')
  const callback = location ? new URL(location, request) : undefined
  const code = callback?.searchParams.get('code')
  if (!callback?.href.startsWith(BENCH_CLIENT.redirectUri) || !code || callback.searchParams.get('state') !== proof.state) {
    throw new Error(`${peer.name} authorization answered ${response.status} ${location ?? ''}`)
  }
  return tokenRequest(peer, endpoints, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: BENCH_CLIENT.redirectUri,
    client_id: BENCH_CLIENT.id,
    code_verifier: proof.verifier
  })
}

/** The refresh grant; the provider rotates the token, so the answer's refresh token is the next one to use. */
export function refresh(peer: OidcPeer, endpoints: Endpoints, refreshToken: string): Promise<Tokens> {
  return tokenRequest(peer, endpoints, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: BENCH_CLIENT.id })
}

async function tokenRequest(peer: OidcPeer, endpoints: Endpoints, form: Record<string, string>): Promise<Tokens> {
  const response = await fetch(endpoints.token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) })
  const body = (await response.json()) as { access_token?: string; refresh_token?: string }
  if (response.status !== 200 || !body.access_token || !body.refresh_token || body.refresh_token === form.refresh_token) {
    throw new Error(`${peer.name} ${form.grant_type} grant answered ${response.status}: ${JSON.stringify(body)}`)
  }
  return { accessToken: body.access_token, refreshToken: body.refresh_token }
}

interface Proof {
  verifier: string
  challenge: string
  state: string
}

function pkce(): Proof {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), state: randomBytes(12).toString('base64url') }
}

function authorizationUrl(endpoints: Endpoints, peer: OidcPeer, proof: Proof): URL {
  const url = new URL(endpoints.authorization)
  const parameters = {
    response_type: 'code',
    client_id: BENCH_CLIENT.id,
    redirect_uri: BENCH_CLIENT.redirectUri,
    scope: SCOPE,
    state: proof.state,
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: proof.challenge,
    code_challenge_method: 'S256',
    ...peer.authorizeParameters
  }
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value)
  return url
}
