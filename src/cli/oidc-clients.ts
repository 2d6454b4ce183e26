import {
  type AuthMethod,
  type IdTokenAlgorithm,
  type OidcClientChanges,
  OidcClientError,
  type PkcePolicy,
  UNKNOWN_CLIENT_ID,
  createOidcClients
} from '../hub/features/oidc/clients.js'
import type { Config } from '../shared/config.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

export const CLIENTS_USAGE = `clients:add registers an application that signs in with the hub over OpenID Connect
(docs/oidc.md). --redirect-uri (one or more) is where the hub sends the browser back with a code;
--post-logout-redirect-uri (any number) where it may send it after signing out; --backchannel-logout-uri
where it tells the application that a session ended. --public registers a client that keeps no secret
(a single-page or native application: PKCE is its only proof); otherwise the secret is printed
once and only its hash is kept, so note it then. --first-party skips the consent page (the family's
own applications). --groups limits the application to the members of the groups named (comma-separated,
each an existing group's); without it, everyone with an account may use it. --id-token-alg, --pkce and
--auth-method fit the client to what the application speaks; --name and --logo-url are what the consent
page shows. clients:update changes what its options name (a list given replaces the list);
clients:rotate-secret prints a new secret once, and the old one stops working at once.
clients:remove ends every grant and token the application holds. Administrators do the same from
the console's Applications section and /api/admin/clients (docs/administration.md).`

/** Each clients:* command's own help, as `npm run hub -- clients:add --help` prints it. */
export const CLIENTS_HELP = {
  'clients:add': `Usage: npm run hub -- clients:add --id ID --redirect-uri URL [--redirect-uri URL...] [--public] [--first-party]
                 [--name NAME] [--logo-url URL] [--post-logout-redirect-uri URL...] [--backchannel-logout-uri URL]
                 [--id-token-alg EdDSA|RS256|ES256] [--pkce required|optional] [--auth-method METHOD] [--groups NAME,NAME]

Registers an application that signs in with the hub over OpenID Connect (docs/oidc.md). A
confidential client's secret is printed once and only its hash is kept, so note it then.

Options:
  --id ID                           the client id: 1 to 59 lower-case letters, digits, "_" or "-"
  --name NAME                       the name the consent page shows (default: the id)
  --redirect-uri URL                where the hub sends the browser back with a code; one or more
  --post-logout-redirect-uri URL    where it may send the browser after signing out; any number
  --backchannel-logout-uri URL      where it tells the application that a session ended
  --public                          a client that keeps no secret (a single-page or native
                                    application: PKCE is its only proof)
  --first-party                     skips the consent page (the family's own applications)
  --logo-url URL                    the logo the consent page shows: https (http only on localhost)
  --id-token-alg EdDSA|RS256|ES256  what its ID tokens are signed with (default EdDSA; RS256 for
                                    applications that know no other, such as Immich)
  --pkce required|optional          whether a confidential client must use PKCE (default required;
                                    a public client always must)
  --auth-method METHOD              how a confidential client sends its secret to the token endpoint:
                                    client_secret_basic (default) or client_secret_post; a public
                                    client's is none
  --groups NAME,NAME                only members of these groups may sign in to it (names, whatever
                                    their case; each must exist); without it, everyone may

A native application (RFC 8252) is a --public client whose redirect URIs are a private-use scheme
of a reverse domain name (app.immich:///oauth-callback, com.example.app:/callback) or http on a
loopback address (http://127.0.0.1/callback, any port accepted).`,
  'clients:list': `Usage: npm run hub -- clients:list

Lists the registered OpenID Connect clients: id, name, kind, redirect URIs, when each was added
and, for one limited to groups, which.
It takes no options.`,
  'clients:update': `Usage: npm run hub -- clients:update --id ID [--name NAME] [--redirect-uri URL...]
                 [--post-logout-redirect-uri URL...] [--backchannel-logout-uri URL] [--first-party | --third-party]
                 [--logo-url URL] [--id-token-alg EdDSA|RS256|ES256] [--pkce required|optional] [--auth-method METHOD]
                 [--groups NAME,NAME]

Changes a registered client, by the rules of clients:add; what no option names stays as it is. The
running hub uses the change at once. The id and the kind (public or confidential) never change.

Options:
  --id ID                           the client id
  --name NAME                       the name the consent page shows
  --redirect-uri URL                replaces the redirect URIs; one or more
  --post-logout-redirect-uri URL    replaces the post-logout redirect URIs; "" for none
  --backchannel-logout-uri URL      replaces the back-channel logout URI; "" for none
  --first-party                     skips the consent page from now on
  --third-party                     asks for consent again
  --logo-url URL                    replaces the logo; "" for none
  --id-token-alg EdDSA|RS256|ES256  what its ID tokens are signed with from now on
  --pkce required|optional          whether a confidential client must use PKCE
  --auth-method METHOD              client_secret_basic or client_secret_post (confidential clients)
  --groups NAME,NAME                replaces the groups whose members alone may use it; "" lets
                                    everyone use it again`,
  'clients:rotate-secret': `Usage: npm run hub -- clients:rotate-secret --id ID

Gives a confidential client a new secret, printed once (only its hash is kept). The old secret
stops working at once: put the new one in the application's settings. Tokens already issued stay
valid until they expire; refreshing them takes the new secret. A public client has no secret.

Options:
  --id ID   the client id`,
  'clients:remove': `Usage: npm run hub -- clients:remove --id ID

Removes a client, ending every grant and token the application holds.

Options:
  --id ID   the client id`
} as const

/** The options as given: a list or a URI absent is undefined, so that clients:update keeps it. */
export interface ClientCommandOptions {
  id?: string | undefined
  name?: string | undefined
  redirectUris?: string[] | undefined
  postLogoutRedirectUris?: string[] | undefined
  backchannelLogoutUri?: string | undefined
  public: boolean
  firstParty: boolean
  thirdParty: boolean
  /** Group names; [] (clients:update --groups "") lets everyone use it. */
  allowedGroups?: string[] | undefined
  logoUrl?: string | undefined
  idTokenAlg?: string | undefined
  pkce?: string | undefined
  authMethod?: string | undefined
}

/** The client settings as given; clients.ts checks each against its list and refuses any other value. */
function settingsOf(options: ClientCommandOptions): Pick<OidcClientChanges, 'idTokenAlg' | 'pkce' | 'authMethod'> {
  return {
    ...(options.idTokenAlg === undefined ? {} : { idTokenAlg: options.idTokenAlg as IdTokenAlgorithm }),
    ...(options.pkce === undefined ? {} : { pkce: options.pkce as PkcePolicy }),
    ...(options.authMethod === undefined ? {} : { authMethod: options.authMethod as AuthMethod })
  }
}

export type ClientsCommand = 'clients:add' | 'clients:list' | 'clients:update' | 'clients:rotate-secret' | 'clients:remove'

type Io = { out: (line: string) => void; err: (line: string) => void }

/** `npm run hub -- clients:*`; resolves to the exit code. */
export async function clientsCommand(command: ClientsCommand, config: Config, options: ClientCommandOptions, io: Io): Promise<number> {
  if (command === 'clients:list') return listClients(config, io)
  if (!options.id) {
    io.err(`${command} needs --id`)
    return 2
  }
  try {
    switch (command) {
      case 'clients:remove':
        return await removeClient(config, options.id, io)
      case 'clients:update':
        return await updateClient(config, { ...options, id: options.id }, io)
      case 'clients:rotate-secret':
        return await rotateSecret(config, options.id, io)
      default:
        return await addClient(config, { ...options, id: options.id }, io)
    }
  } catch (error) {
    if (error instanceof OidcClientError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}

async function addClient(config: Config, options: ClientCommandOptions & { id: string }, io: Io): Promise<number> {
  if (options.thirdParty) {
    io.err('--third-party is for clients:update: a client is third-party unless --first-party')
    return 2
  }
  const secret = await withDatabase(config.shared, (db) =>
    createOidcClients(db).add(
      {
        id: options.id,
        name: options.name ?? options.id,
        redirectUris: options.redirectUris ?? [],
        postLogoutRedirectUris: options.postLogoutRedirectUris ?? [],
        ...(options.backchannelLogoutUri ? { backchannelLogoutUri: options.backchannelLogoutUri } : {}),
        public: options.public,
        firstParty: options.firstParty,
        ...(options.allowedGroups === undefined ? {} : { allowedGroups: options.allowedGroups }),
        ...settingsOf(options),
        ...(options.logoUrl ? { logoUrl: options.logoUrl } : {})
      },
      new Date()
    )
  )
  const groups = options.allowedGroups?.length ? `, for ${options.allowedGroups.join(', ')} only` : ''
  io.out(escapeForTerminal(`Registered ${options.id} (${options.public ? 'public' : 'confidential'}${options.firstParty ? ', first-party' : ''}${groups}).`))
  if (secret !== null) io.out(`Client secret (shown only now): ${secret}`)
  io.out(`Issuer: ${config.hub.publicUrl}`)
  return 0
}

/** Each change's option, as clients:update reports what it changed. */
const OPTION_OF: Record<keyof OidcClientChanges, string> = {
  name: '--name',
  redirectUris: '--redirect-uri',
  postLogoutRedirectUris: '--post-logout-redirect-uri',
  backchannelLogoutUri: '--backchannel-logout-uri',
  firstParty: '--first-party',
  allowedGroups: '--groups',
  idTokenAlg: '--id-token-alg',
  pkce: '--pkce',
  authMethod: '--auth-method',
  logoUrl: '--logo-url'
}

async function updateClient(config: Config, options: ClientCommandOptions & { id: string }, io: Io): Promise<number> {
  if (options.public) {
    io.err('A client stays public or confidential: remove it and add it again to change its kind')
    return 2
  }
  if (options.firstParty && options.thirdParty) {
    io.err('Give --first-party or --third-party, not both')
    return 2
  }
  // An empty value ("") empties the list, or removes the URI.
  const changes: OidcClientChanges = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.redirectUris === undefined ? {} : { redirectUris: options.redirectUris.filter((uri) => uri !== '') }),
    ...(options.postLogoutRedirectUris === undefined ? {} : { postLogoutRedirectUris: options.postLogoutRedirectUris.filter((uri) => uri !== '') }),
    ...(options.backchannelLogoutUri === undefined ? {} : { backchannelLogoutUri: options.backchannelLogoutUri === '' ? null : options.backchannelLogoutUri }),
    ...(options.firstParty ? { firstParty: true } : options.thirdParty ? { firstParty: false } : {}),
    ...(options.allowedGroups === undefined ? {} : { allowedGroups: options.allowedGroups }),
    ...settingsOf(options),
    ...(options.logoUrl === undefined ? {} : { logoUrl: options.logoUrl === '' ? null : options.logoUrl })
  }
  const { changed } = await withDatabase(config.shared, (db) => createOidcClients(db).update(options.id, changes))
  io.out(changed.length === 0 ? `Nothing changed for ${options.id}.` : `Updated ${options.id}: ${changed.map((field) => OPTION_OF[field]).join(', ')}.`)
  return 0
}

async function rotateSecret(config: Config, id: string, io: Io): Promise<number> {
  const secret = await withDatabase(config.shared, (db) => createOidcClients(db).rotateSecret(id))
  io.out(`New client secret for ${id} (shown only now): ${secret}`)
  io.out('The old secret has stopped working.')
  return 0
}

async function listClients(config: Config, io: Io): Promise<number> {
  const clients = await withDatabase(config.shared, (db) => createOidcClients(db).list())
  if (clients.length === 0) {
    io.out('No client is registered.')
    return 0
  }
  for (const client of clients) {
    const kind = `${client.public ? 'public' : 'confidential'}${client.firstParty ? ', first-party' : ''}`
    const settings = `ID tokens ${client.idTokenAlg}, PKCE ${client.pkce}, auth ${client.authMethod}${client.logoUrl === null ? '' : `, logo ${client.logoUrl}`}`
    io.out(escapeForTerminal(`${client.id}  "${client.name}"  ${kind}  redirect ${client.redirectUris.join(' ')}  added ${client.createdAt}  ${settings}${whoMayUse(client)}`))
  }
  return 0
}

/** Who may sign in to it, as clients:list ends its line: nothing when everyone may. */
function whoMayUse(client: { allowedGroups: string[]; limitedToGroups: boolean }): string {
  if (!client.limitedToGroups) return ''
  return client.allowedGroups.length === 0 ? '  for nobody (its groups were deleted)' : `  for groups ${client.allowedGroups.join(',')}`
}

async function removeClient(config: Config, id: string, io: Io): Promise<number> {
  if (!(await withDatabase(config.shared, (db) => createOidcClients(db).remove(id)))) {
    io.err(UNKNOWN_CLIENT_ID)
    return 1
  }
  io.out(`Removed ${id}; its grants and tokens have ended.`)
  return 0
}
