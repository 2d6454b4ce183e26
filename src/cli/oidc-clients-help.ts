// The clients:* commands' usage, help and options, apart from oidc-clients.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

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

export const CLIENTS_OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  public: { type: 'boolean' },
  'first-party': { type: 'boolean' },
  'third-party': { type: 'boolean' },
  'logo-url': { type: 'string' },
  'id-token-alg': { type: 'string' },
  pkce: { type: 'string' },
  'auth-method': { type: 'string' }
} as const
