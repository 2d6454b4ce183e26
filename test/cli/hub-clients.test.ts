import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { hashSecret } from '../../src/hub/features/oidc/clients.js'
import { useHubCli } from '../helpers/hub-cli.js'

describe('hub CLI: OpenID Connect clients', () => {
  const { output, io, withDatabase } = useHubCli({ HUB_PUBLIC_URL: 'https://hub.example' })
  const storedClients = () => withDatabase((db) => db.selectFrom('oidcClients').selectAll().orderBy('id').execute())

  it('adds a confidential client, printing its secret once and keeping only its hash', async () => {
    const args = ['clients:add', '--id', 'gitea', '--name', 'Gitea', '--redirect-uri', 'https://git.example/user/oauth2/hearth/callback', '--redirect-uri', 'https://git.example/cb2']
    expect(await runHubCli(args, io())).toBe(0)
    expect(output.out[0]).toBe('Registered gitea (confidential).')
    const secret = /^Client secret \(shown only now\): (\S{43})$/.exec(output.out[1] ?? '')?.[1] ?? ''
    expect(secret).not.toBe('')
    expect(output.out[2]).toBe('Issuer: https://hub.example')

    const [row] = await storedClients()
    expect(row).toMatchObject({ id: 'gitea', name: 'Gitea', firstParty: 0, secretHash: hashSecret(secret) })
    expect(JSON.stringify(row)).not.toContain(secret)
    expect(JSON.parse(row?.redirectUris ?? '')).toEqual(['https://git.example/user/oauth2/hearth/callback', 'https://git.example/cb2'])
  })

  it('adds a public first-party client without a secret, and lists the clients', async () => {
    expect(await runHubCli(['clients:add', '--id', 'family-app', '--public', '--first-party', '--redirect-uri', 'http://localhost:8080/cb'], io())).toBe(0)
    expect(output.out).toEqual(['Registered family-app (public, first-party).', 'Issuer: https://hub.example'])
    expect((await storedClients())[0]?.secretHash).toBeNull()

    output.out = []
    expect(await runHubCli(['clients:list'], io())).toBe(0)
    expect(output.out).toHaveLength(1)
    expect(output.out[0]).toMatch(/^family-app {2}"family-app" {2}public, first-party {2}redirect http:\/\/localhost:8080\/cb {2}added \d{4}-/)
  })

  it('says when no client is registered', async () => {
    expect(await runHubCli(['clients:list'], io())).toBe(0)
    expect(output.out).toEqual(['No client is registered.'])
  })

  it('removes a client by id, and says when there is none', async () => {
    expect(await runHubCli(['clients:add', '--id', 'grafana', '--redirect-uri', 'https://grafana.example/login/generic_oauth'], io())).toBe(0)
    expect(await runHubCli(['clients:remove', '--id', 'grafana'], io())).toBe(0)
    expect(output.out.at(-1)).toBe('Removed grafana; its grants and tokens have ended.')
    expect(await storedClients()).toEqual([])
    expect(await runHubCli(['clients:remove', '--id', 'grafana'], io())).toBe(1)
    expect(output.err).toEqual(['No client has this id'])
  })

  it('refuses a bad registration with a message', async () => {
    const cases: [string[], number, string][] = [
      [['clients:add', '--redirect-uri', 'https://a.example/cb'], 2, 'clients:add needs --id'],
      [['clients:remove'], 2, 'clients:remove needs --id'],
      [['clients:add', '--id', 'app'], 1, 'A client needs at least one redirect URI'],
      [['clients:add', '--id', 'my.app', '--redirect-uri', 'https://a.example/cb'], 1, 'The client id must be 1 to 59 characters: lower-case letters, digits, "_" or "-"'],
      [['clients:add', '--id', 'App!', '--redirect-uri', 'https://a.example/cb'], 1, 'The client id must be 1 to 59 characters: lower-case letters, digits, "_" or "-"'],
      [['clients:add', '--id', 'app', '--redirect-uri', 'javascript:alert(1)'], 1, 'Not an http(s) URL without a fragment: javascript:alert(1)'],
      [['clients:add', '--id', 'app', '--redirect-uri', 'https://a.example/cb#x'], 1, 'Not an http(s) URL without a fragment: https://a.example/cb#x']
    ]
    for (const [args, code, message] of cases) {
      output.err = []
      expect(await runHubCli(args, io()), args.join(' ')).toBe(code)
      expect(output.err).toEqual([message])
    }
    expect(await runHubCli(['clients:add', '--id', 'app', '--redirect-uri', 'https://a.example/cb'], io())).toBe(0)
    output.err = []
    expect(await runHubCli(['clients:add', '--id', 'app', '--redirect-uri', 'https://a.example/cb'], io())).toBe(1)
    expect(output.err).toEqual(['A client with id app already exists'])
  })

  it('updates what its options name, by the rules of clients:add, and keeps the rest', async () => {
    expect(await runHubCli(['clients:add', '--id', 'wiki', '--name', 'Wiki', '--redirect-uri', 'https://wiki.example/cb', '--backchannel-logout-uri', 'https://wiki.example/logout'], io())).toBe(0)
    output.out = []
    const update = ['clients:update', '--id', 'wiki', '--name', 'Family wiki', '--redirect-uri', 'https://wiki.example/new', '--first-party']
    expect(await runHubCli(update, io())).toBe(0)
    expect(output.out).toEqual(['Updated wiki: --name, --redirect-uri, --first-party.'])
    const [row] = await storedClients()
    expect(row).toMatchObject({ name: 'Family wiki', firstParty: 1, backchannelLogoutUri: 'https://wiki.example/logout' })
    expect(JSON.parse(row?.redirectUris ?? '')).toEqual(['https://wiki.example/new'])

    output.out = []
    expect(await runHubCli(['clients:update', '--id', 'wiki', '--backchannel-logout-uri', '', '--third-party'], io())).toBe(0)
    expect(output.out).toEqual(['Updated wiki: --backchannel-logout-uri, --first-party.'])
    expect((await storedClients())[0]).toMatchObject({ firstParty: 0, backchannelLogoutUri: null })
    output.out = []
    expect(await runHubCli(['clients:update', '--id', 'wiki', '--name', 'Family wiki'], io())).toBe(0)
    expect(output.out).toEqual(['Nothing changed for wiki.'])

    const refusals: [string[], number, string][] = [
      [['clients:update', '--redirect-uri', 'https://a.example/cb'], 2, 'clients:update needs --id'],
      [['clients:update', '--id', 'wiki', '--public'], 2, 'A client stays public or confidential: remove it and add it again to change its kind'],
      [['clients:update', '--id', 'wiki', '--first-party', '--third-party'], 2, 'Give --first-party or --third-party, not both'],
      [['clients:update', '--id', 'wiki', '--redirect-uri', ''], 1, 'A client needs at least one redirect URI'],
      [['clients:update', '--id', 'wiki', '--redirect-uri', 'https://a.example/cb#x'], 1, 'Not an http(s) URL without a fragment: https://a.example/cb#x'],
      [['clients:update', '--id', 'nobody', '--name', 'N'], 1, 'No client has this id'],
      [['clients:add', '--id', 'other', '--redirect-uri', 'https://a.example/cb', '--third-party'], 2, '--third-party is for clients:update: a client is third-party unless --first-party']
    ]
    for (const [args, code, message] of refusals) {
      output.err = []
      expect(await runHubCli(args, io()), args.join(' ')).toBe(code)
      expect(output.err).toEqual([message])
    }
  })

  it('rotates a confidential client’s secret, printing the new one once, and refuses for a public client', async () => {
    expect(await runHubCli(['clients:add', '--id', 'gitea', '--redirect-uri', 'https://git.example/cb'], io())).toBe(0)
    output.out = []
    expect(await runHubCli(['clients:rotate-secret', '--id', 'gitea'], io())).toBe(0)
    const secret = /^New client secret for gitea \(shown only now\): (\S{43})$/.exec(output.out[0] ?? '')?.[1] ?? ''
    expect(secret).not.toBe('')
    expect(output.out[1]).toBe('The old secret has stopped working.')
    expect((await storedClients())[0]?.secretHash).toBe(hashSecret(secret))

    expect(await runHubCli(['clients:add', '--id', 'spa', '--public', '--redirect-uri', 'https://spa.example/cb'], io())).toBe(0)
    output.err = []
    expect(await runHubCli(['clients:rotate-secret', '--id', 'spa'], io())).toBe(1)
    expect(output.err).toEqual(['A public client has no secret to rotate: PKCE is its only proof'])
    output.err = []
    expect(await runHubCli(['clients:rotate-secret', '--id', 'nobody'], io())).toBe(1)
    expect(output.err).toEqual(['No client has this id'])
  })
})
