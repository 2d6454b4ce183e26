import { generateKeyPairSync, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import Database from 'better-sqlite3'
import { BENCH_CLIENT, type OidcPeer, signInBrowser } from './oidc-client.js'
import { type RunningService, startService } from './services.js'

/** The Debian package's program and its SQLite schema (package glewlwyd). */
const GLEWLWYD = '/usr/bin/glewlwyd'
const INIT_SCRIPT = '/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz'
/**
 * The administrator the package's init script creates, with the package's documented default
 * password: the bench's Glewlwyd lives on 127.0.0.1 for the run alone, in a directory removed after it.
 */
const PACKAGE_ADMIN = { username: 'admin', password: 'password' }
/** Its plugin instance name: the OpenID Connect endpoints are under /api/<name>/. */
const PLUGIN = 'oidc'

/** Why Glewlwyd cannot be run here, or undefined when it can. */
export function glewlwydMissing(): string | undefined {
  for (const file of [GLEWLWYD, INIT_SCRIPT]) if (!fs.existsSync(file)) return `${file} is missing (Debian package glewlwyd)`
  return undefined
}

/**
 * Glewlwyd 2.7 as the peer, set up as its documentation says: a fresh SQLite database from the
 * package's init script, a configuration file in the bench's directory, then through its admin
 * API an OpenID Connect plugin signing with an Ed25519 key made now (the hub's default algorithm),
 * a user with a password made now, and a public PKCE client with the bench's redirect URI. The
 * user signs in through its auth API and grants the client `openid`, as the hub's person has a
 * first-party client that asks no consent.
 */
export async function startGlewlwyd(directory: string): Promise<OidcPeer> {
  const home = path.join(directory, 'glewlwyd')
  fs.mkdirSync(home, { recursive: true })
  const databaseFile = path.join(home, 'glewlwyd.db')
  const database = new Database(databaseFile)
  database.exec(zlib.gunzipSync(fs.readFileSync(INIT_SCRIPT)).toString('utf8'))
  // As the hub's own SQLite (src/shared/database/connect.ts): readers beside the writer, which the
  // 8 loops need; the mode stays with the file. In the default rollback journal, a code written by
  // one loop was now and then not found by the token request (invalid_code).
  database.pragma('journal_mode = WAL')
  database.close()
  const configFile = path.join(home, 'glewlwyd.conf')
  const service = await startService({
    name: 'glewlwyd',
    program: {
      executable: GLEWLWYD,
      // Its endpoints are named after `external_url`, which holds the port: the file is written once the port is known.
      args: (port) => {
        fs.writeFileSync(configFile, glewlwydConfig(databaseFile, port))
        return ['--config-file', configFile]
      }
    },
    // Answered without a session once the server is up.
    readinessPath: '/config',
    logDir: directory,
    env: { PATH: process.env.PATH ?? '' }
  })
  const api = `${service.baseUrl}/api`
  const admin = await signIn(api, PACKAGE_ADMIN)
  const key = { ...generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'EdDSA', use: 'sig' }
  await call(admin, 'POST', `${api}/mod/plugin/`, {
    module: 'oidc',
    name: PLUGIN,
    display_name: 'OpenID Connect',
    parameters: pluginParameters(service, JSON.stringify({ keys: [key] }))
  })
  const user = { username: 'bench', password: randomBytes(18).toString('base64url') }
  await call(admin, 'POST', `${api}/user/`, { ...user, name: 'Bench user', email: 'bench-user@example.org', scope: ['openid', 'g_profile'], enabled: true })
  await call(admin, 'POST', `${api}/client/`, {
    client_id: BENCH_CLIENT.id,
    name: 'Bench client',
    confidential: false,
    redirect_uri: [BENCH_CLIENT.redirectUri],
    authorization_type: ['code', 'refresh_token'],
    token_endpoint_auth_method: ['none'],
    scope: [],
    enabled: true
  })
  const session = await signIn(api, user)
  await call(session, 'PUT', `${api}/auth/grant/${BENCH_CLIENT.id}`, { scope: 'openid' })
  const peer: OidcPeer = {
    name: 'Glewlwyd',
    service,
    discoveryUrl: `${api}/${PLUGIN}/.well-known/openid-configuration`,
    browserCookie: session,
    // Without it Glewlwyd shows its sign-in page to confirm the session before answering.
    authorizeParameters: { g_continue: '' }
  }
  return { ...peer, browserCookie: await signInBrowser(peer) }
}

function glewlwydConfig(databaseFile: string, port: number): string {
  return `# Written by npm run bench.
port=${port}
external_url="http://127.0.0.1:${port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="console"
log_level="WARNING"
cookie_secure=0
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
use_secure_connection=false
# Glewlwyd 2.7 refuses to start when these are unset, TLS off or not.
secure_connection_key_file="/nonexistent/glewlwyd.key"
secure_connection_pem_file="/nonexistent/glewlwyd.pem"
secure_connection_ca_file="/nonexistent/glewlwyd.crt"
hash_algorithm="SHA512"
database =
{
  type = "sqlite3"
  path = "${databaseFile}"
};
`
}

/** The code flow with PKCE (S256 only) and rotating refresh tokens, as the hub offers; nothing else. */
function pluginParameters(service: RunningService, privateJwks: string): Record<string, unknown> {
  return {
    iss: service.baseUrl,
    'jwks-private': privateJwks,
    'default-kid': 'bench',
    'access-token-duration': 600,
    'refresh-token-duration': 30 * 24 * 60 * 60,
    'code-duration': 60,
    'refresh-token-rolling': true,
    // A refresh token is good once: each use returns a new one, as the hub's rotation does.
    'refresh-token-one-use': 'always',
    'allow-non-oidc': false,
    'auth-type-code-enabled': true,
    'auth-type-token-enabled': false,
    'auth-type-id-token-enabled': false,
    'auth-type-none-enabled': false,
    'auth-type-password-enabled': false,
    'auth-type-client-enabled': false,
    'auth-type-device-enabled': false,
    'auth-type-refresh-enabled': true,
    'pkce-allowed': true,
    'pkce-method-plain-allowed': false,
    'subject-type': 'public',
    scope: [],
    claims: []
  }
}

/** Signs in through Glewlwyd's auth API; resolves to the session cookie. */
async function signIn(api: string, credentials: { username: string; password: string }): Promise<string> {
  const response = await fetch(`${api}/auth/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
  if (response.status !== 200) throw new Error(`Glewlwyd sign-in of ${credentials.username} answered ${response.status}`)
  const cookie = response.headers.getSetCookie()[0]?.split(';', 1)[0]
  if (!cookie) throw new Error(`Glewlwyd sign-in of ${credentials.username} set no cookie`)
  return cookie
}

async function call(cookie: string, method: 'POST' | 'PUT', url: string, body: unknown): Promise<void> {
  const response = await fetch(url, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 200) throw new Error(`Glewlwyd ${method} ${url} answered ${response.status}: ${await response.text()}`)
}
