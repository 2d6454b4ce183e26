import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { useHubCli } from '../helpers/hub-cli.js'

describe('hub CLI: what real applications need of their client (issue 30)', () => {
  const { output, io, withDatabase } = useHubCli({ HUB_PUBLIC_URL: 'https://hub.example' })
  const stored = (id: string) => withDatabase((db) => db.selectFrom('oidcClients').selectAll().where('id', '=', id).executeTakeFirst())

  it('registers a client with its ID token algorithm, PKCE, authentication method, name and logo', async () => {
    const args = [
      'clients:add',
      '--id',
      'nextcloud',
      '--name',
      'Nextcloud',
      '--logo-url',
      'https://cloud.example/logo.svg',
      '--redirect-uri',
      'https://cloud.example/apps/user_oidc/code',
      '--id-token-alg',
      'RS256',
      '--pkce',
      'optional',
      '--auth-method',
      'client_secret_post'
    ]
    expect(await runHubCli(args, io())).toBe(0)
    expect(output.out[0]).toBe('Registered nextcloud (confidential).')
    expect(await stored('nextcloud')).toMatchObject({
      name: 'Nextcloud',
      logoUrl: 'https://cloud.example/logo.svg',
      idTokenAlg: 'RS256',
      pkce: 'optional',
      authMethod: 'client_secret_post'
    })
    output.out = []
    expect(await runHubCli(['clients:list'], io())).toBe(0)
    expect(output.out[0]).toMatch(/ {2}ID tokens RS256, PKCE optional, auth client_secret_post, logo https:\/\/cloud\.example\/logo\.svg$/)
  })

  it('keeps the defaults when no option names them: EdDSA, PKCE required, Basic for a confidential client and none for a public one', async () => {
    expect(await runHubCli(['clients:add', '--id', 'plain', '--redirect-uri', 'https://plain.example/cb'], io())).toBe(0)
    expect(await stored('plain')).toMatchObject({ idTokenAlg: 'EdDSA', pkce: 'required', authMethod: 'client_secret_basic', logoUrl: null })
    expect(await runHubCli(['clients:add', '--id', 'plain-spa', '--public', '--redirect-uri', 'https://plain.example/spa'], io())).toBe(0)
    expect(await stored('plain-spa')).toMatchObject({ idTokenAlg: 'EdDSA', pkce: 'required', authMethod: 'none' })
  })

  it('registers a native application: a public client with a private-use scheme and a loopback redirect', async () => {
    const args = ['clients:add', '--id', 'immich-app', '--public', '--redirect-uri', 'app.immich:///oauth-callback', '--redirect-uri', 'http://127.0.0.1/callback', '--id-token-alg', 'RS256']
    expect(await runHubCli(args, io())).toBe(0)
    expect(JSON.parse((await stored('immich-app'))?.redirectUris ?? '')).toEqual(['app.immich:///oauth-callback', 'http://127.0.0.1/callback'])
  })

  it('changes each setting with clients:update, and says which', async () => {
    expect(await runHubCli(['clients:add', '--id', 'grafana', '--redirect-uri', 'https://grafana.example/login/generic_oauth'], io())).toBe(0)
    output.out = []
    const update = ['clients:update', '--id', 'grafana', '--id-token-alg', 'ES256', '--pkce', 'optional', '--auth-method', 'client_secret_post', '--logo-url', 'https://grafana.example/logo.png', '--name', 'Grafana']
    expect(await runHubCli(update, io())).toBe(0)
    expect(output.out).toEqual(['Updated grafana: --name, --id-token-alg, --pkce, --auth-method, --logo-url.'])
    expect(await stored('grafana')).toMatchObject({ name: 'Grafana', idTokenAlg: 'ES256', pkce: 'optional', authMethod: 'client_secret_post', logoUrl: 'https://grafana.example/logo.png' })
    output.out = []
    expect(await runHubCli(['clients:update', '--id', 'grafana', '--logo-url', ''], io())).toBe(0)
    expect(output.out).toEqual(['Updated grafana: --logo-url.'])
    expect((await stored('grafana'))?.logoUrl).toBeNull()
  })

  it('refuses what the rules refuse, with a message', async () => {
    expect(await runHubCli(['clients:add', '--id', 'wiki', '--redirect-uri', 'https://wiki.example/cb'], io())).toBe(0)
    expect(await runHubCli(['clients:add', '--id', 'spa', '--public', '--redirect-uri', 'https://spa.example/cb'], io())).toBe(0)
    const add = (...rest: string[]) => ['clients:add', '--id', 'new-app', '--redirect-uri', 'https://new.example/cb', ...rest]
    const cases: [string[], string][] = [
      [add('--id-token-alg', 'HS256'), 'The ID token algorithm must be one of EdDSA, RS256, ES256'],
      [add('--pkce', 'sometimes'), 'PKCE must be required or optional'],
      [add('--public', '--pkce', 'optional'), 'A public client always uses PKCE: it is its only proof'],
      [add('--auth-method', 'private_key_jwt'), 'The token endpoint authentication method must be one of client_secret_basic, client_secret_post, none'],
      [add('--auth-method', 'none'), 'A confidential client proves itself with its secret: client_secret_basic or client_secret_post'],
      [add('--public', '--auth-method', 'client_secret_post'), 'A public client has no secret: its authentication method is none'],
      [
        ['clients:add', '--id', 'new-app', '--redirect-uri', 'app.immich:///oauth-callback'],
        'A private-use URI scheme is for native applications, which are public clients (they can keep no secret): register app.immich:///oauth-callback on a public client'
      ],
      [
        ['clients:add', '--id', 'new-app', '--public', '--redirect-uri', 'app.immich:///oauth-callback', '--redirect-uri', 'http://photos.lan/cb'],
        'A native application (one with a private-use URI scheme) redirects only to private-use schemes, to http on a loopback address (127.0.0.1, [::1], localhost) or to https on another host'
      ],
      [
        ['clients:add', '--id', 'new-app', '--public', '--redirect-uri', 'myapp:/callback'],
        'Not an http(s) URL nor a private-use scheme of a reverse domain name (com.example.app:/callback) without a fragment: myapp:/callback'
      ],
      [add('--logo-url', 'http://photos.example/logo.png'), 'A logo URL must be an https URL (http only on localhost), without a fragment or credentials, written in full (https://photos.example/logo.png)'],
      [add('--logo-url', `https://photos.example/${'x'.repeat(1000)}`), 'A logo URL may be at most 1000 characters'],
      [['clients:update', '--id', 'wiki', '--redirect-uri', 'com.example.app:/callback'], 'A private-use URI scheme is for native applications, which are public clients (they can keep no secret): register com.example.app:/callback on a public client'],
      [['clients:update', '--id', 'spa', '--pkce', 'optional'], 'A public client always uses PKCE: it is its only proof'],
      [['clients:update', '--id', 'wiki', '--auth-method', 'none'], 'A confidential client proves itself with its secret: client_secret_basic or client_secret_post']
    ]
    for (const [args, message] of cases) {
      output.err = []
      expect(await runHubCli(args, io()), args.join(' ')).toBe(1)
      expect(output.err, args.join(' ')).toEqual([message])
    }
    expect(await stored('new-app')).toBeUndefined()
  })

  it('documents the options in clients:add --help', async () => {
    expect(await runHubCli(['clients:add', '--help'], io())).toBe(0)
    const help = output.out.join('\n')
    for (const option of ['--id-token-alg', '--pkce', '--auth-method', '--logo-url', 'app.immich:///oauth-callback']) expect(help).toContain(option)
  })
})
