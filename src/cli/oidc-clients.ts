import { OidcClientError, createOidcClients } from '../hub/features/oidc/clients.js'
import type { Config } from '../shared/config.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

export const CLIENTS_USAGE = `clients:add registers an application that signs in with the hub over OpenID Connect
(docs/oidc.md). --redirect-uri (one or more) is where the hub sends the browser back with a code;
--post-logout-redirect-uri (any number) where it may send it after signing out; --backchannel-logout-uri
where it tells the application that a session ended. --public registers a client that keeps no secret
(a single-page or native application: PKCE is its only proof); otherwise the secret is printed
once and only its hash is kept, so note it then. --first-party skips the consent page (the family's
own applications). clients:remove ends every grant and token the application holds.`

/** Each clients:* command's own help, as `npm run hub -- clients:add --help` prints it. */
export const CLIENTS_HELP = {
  'clients:add': `Usage: npm run hub -- clients:add --id ID --redirect-uri URL [--redirect-uri URL...] [--public] [--first-party]
                 [--name NAME] [--post-logout-redirect-uri URL...] [--backchannel-logout-uri URL]

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
  --first-party                     skips the consent page (the family's own applications)`,
  'clients:list': `Usage: npm run hub -- clients:list

Lists the registered OpenID Connect clients: id, name, kind, redirect URIs and when each was added.
It takes no options.`,
  'clients:remove': `Usage: npm run hub -- clients:remove --id ID

Removes a client, ending every grant and token the application holds.

Options:
  --id ID   the client id`
} as const

export interface ClientCommandOptions {
  id?: string
  name?: string
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  backchannelLogoutUri?: string
  public: boolean
  firstParty: boolean
}

type Io = { out: (line: string) => void; err: (line: string) => void }

/** `npm run hub -- clients:add|clients:list|clients:remove`; resolves to the exit code. */
export async function clientsCommand(command: 'clients:add' | 'clients:list' | 'clients:remove', config: Config, options: ClientCommandOptions, io: Io): Promise<number> {
  if (command === 'clients:list') return listClients(config, io)
  if (!options.id) {
    io.err(`${command} needs --id`)
    return 2
  }
  if (command === 'clients:remove') return removeClient(config, options.id, io)
  return addClient(config, { ...options, id: options.id }, io)
}

async function addClient(config: Config, options: ClientCommandOptions & { id: string }, io: Io): Promise<number> {
  try {
    const secret = await withDatabase(config.shared, (db) =>
      createOidcClients(db).add(
        {
          id: options.id,
          name: options.name ?? options.id,
          redirectUris: options.redirectUris,
          postLogoutRedirectUris: options.postLogoutRedirectUris,
          ...(options.backchannelLogoutUri ? { backchannelLogoutUri: options.backchannelLogoutUri } : {}),
          public: options.public,
          firstParty: options.firstParty
        },
        new Date()
      )
    )
    io.out(`Registered ${options.id} (${options.public ? 'public' : 'confidential'}${options.firstParty ? ', first-party' : ''}).`)
    if (secret !== null) io.out(`Client secret (shown only now): ${secret}`)
    io.out(`Issuer: ${config.hub.publicUrl}`)
    return 0
  } catch (error) {
    if (error instanceof OidcClientError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}

async function listClients(config: Config, io: Io): Promise<number> {
  const clients = await withDatabase(config.shared, (db) => createOidcClients(db).list())
  if (clients.length === 0) {
    io.out('No client is registered.')
    return 0
  }
  for (const client of clients) {
    const kind = `${client.public ? 'public' : 'confidential'}${client.firstParty ? ', first-party' : ''}`
    io.out(escapeForTerminal(`${client.id}  "${client.name}"  ${kind}  redirect ${client.redirectUris.join(' ')}  added ${client.createdAt}`))
  }
  return 0
}

async function removeClient(config: Config, id: string, io: Io): Promise<number> {
  if (!(await withDatabase(config.shared, (db) => createOidcClients(db).remove(id)))) {
    io.err('No client has this id')
    return 1
  }
  io.out(`Removed ${id}; its grants and tokens have ended.`)
  return 0
}
