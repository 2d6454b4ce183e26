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

/** The parsed command line as clientsCommand reads it. */
export function clientOptionsOf(values: {
  id?: string
  name?: string
  'redirect-uri'?: string[]
  'post-logout-redirect-uri'?: string[]
  'backchannel-logout-uri'?: string
  public?: boolean
  'first-party'?: boolean
  'third-party'?: boolean
  groups?: string
  'logo-url'?: string
  'id-token-alg'?: string
  pkce?: string
  'auth-method'?: string
}): ClientCommandOptions {
  return {
    id: values.id,
    name: values.name,
    redirectUris: values['redirect-uri'],
    postLogoutRedirectUris: values['post-logout-redirect-uri'],
    backchannelLogoutUri: values['backchannel-logout-uri'],
    logoUrl: values['logo-url'],
    idTokenAlg: values['id-token-alg'],
    pkce: values.pkce,
    authMethod: values['auth-method'],
    public: values.public ?? false,
    firstParty: values['first-party'] ?? false,
    thirdParty: values['third-party'] ?? false,
    // Comma-separated names; "" (clients:update) lets everyone use the client again.
    allowedGroups: values.groups?.split(',').map((name) => name.trim()).filter((name) => name !== '')
  }
}
