import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../../src/shared/config.js'

describe('configuration', () => {
  it('has safe defaults: loopback, port 3000, SQLite under ./data, permissions off, app id "tasks"', () => {
    const config = readConfig({})
    expect(config.shared).toEqual({
      host: '127.0.0.1',
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      databaseConnectTimeoutSeconds: 60,
      logLevel: 'info'
    })
    expect(config.tasks).toEqual({
      port: 3000,
      appId: 'tasks',
      permissionsEnabled: false,
      auth: 'header',
      hubIssuer: 'http://localhost:3001',
      hubJwksUrl: new URL('http://localhost:3001/.well-known/jwks.json'),
      allowedHosts: ['localhost:3000', '127.0.0.1:3000', '[::1]:3000'],
      publicUrl: 'http://localhost:3000'
    })
  })

  it('answers to the loopback names and HOST, each with PORT, unless TASKS_ALLOWED_HOSTS says otherwise', () => {
    expect(readConfig({ HOST: 'tasks.internal', PORT: '4000' }).tasks.allowedHosts).toEqual([
      'localhost:4000',
      '127.0.0.1:4000',
      '[::1]:4000',
      'tasks.internal:4000'
    ])
    expect(readConfig({ HOST: 'fd00::5' }).tasks.allowedHosts).toContain('[fd00::5]:3000')
    // A Host without a port names port 80: on port 80 the bare names are the ones clients send.
    expect(readConfig({ PORT: '80' }).tasks.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]'])
    expect(readConfig({ TASKS_ALLOWED_HOSTS: 'Tasks.Example.org, 10.0.0.5:3000, [FD00::5]:8080, tasks.example.org:80' }).tasks.allowedHosts).toEqual([
      'tasks.example.org',
      '10.0.0.5:3000',
      '[fd00::5]:8080'
    ])
  })

  it("answers to TASKS_PUBLIC_URL's host by default: a reverse proxy forwards the browser's Host", () => {
    expect(readConfig({ TASKS_PUBLIC_URL: 'https://Tasks.Example.org' }).tasks.allowedHosts).toEqual([
      'localhost:3000',
      '127.0.0.1:3000',
      '[::1]:3000',
      'tasks.example.org'
    ])
    expect(readConfig({ TASKS_PUBLIC_URL: 'https://tasks.example.org:8443' }).tasks.allowedHosts).toContain('tasks.example.org:8443')
    // A list of its own is the whole list, as before.
    expect(readConfig({ TASKS_PUBLIC_URL: 'https://tasks.example.org', TASKS_ALLOWED_HOSTS: '10.0.0.5:3000' }).tasks.allowedHosts).toEqual(['10.0.0.5:3000'])
  })

  it("finds the hub's issuer and keys from its public URL unless told otherwise", () => {
    expect(readConfig({ HUB_PUBLIC_URL: 'https://id.example.org/' }).tasks).toMatchObject({
      hubIssuer: 'https://id.example.org',
      hubJwksUrl: new URL('https://id.example.org/.well-known/jwks.json')
    })
    expect(readConfig({ HUB_ISSUER: 'https://issuer.example.org', HUB_JWKS_URL: 'https://keys.example.org/jwks' }).tasks).toMatchObject({
      hubIssuer: 'https://issuer.example.org',
      hubJwksUrl: new URL('https://keys.example.org/jwks')
    })
  })

  it('reads every variable', () => {
    const config = readConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/var/lib/hearth',
      DATABASE_URL: 'postgres://db.internal/hearth',
      DATABASE_CONNECT_TIMEOUT: '5',
      LOG_LEVEL: 'warn',
      PERMISSIONS_ENABLED: 'true',
      TASKS_APP_ID: 'todo',
      TASKS_AUTH: 'either'
    })
    expect(config.shared).toEqual({
      host: '0.0.0.0',
      dataDir: '/var/lib/hearth',
      databaseUrl: 'postgres://db.internal/hearth',
      databaseConnectTimeoutSeconds: 5,
      logLevel: 'warn'
    })
    expect(config.tasks).toMatchObject({ port: 8080, appId: 'todo', permissionsEnabled: true, auth: 'either' })
  })

  it('registers the task manager with the hub where it really listens, unless HUB_APPS says otherwise', () => {
    expect(readConfig({}).hub.apps).toEqual({ tasks: 'http://localhost:3000' })
    expect(readConfig({ PORT: '4000', TASKS_APP_ID: 'todo' }).hub.apps).toEqual({ todo: 'http://localhost:4000' })
    expect(readConfig({ PORT: '4000', HUB_APPS: 'tasks=https://tasks.example' }).hub.apps).toEqual({ tasks: 'https://tasks.example' })
    expect(readConfig({ HOST: '0.0.0.0' }).hub.apps).toEqual({ tasks: 'http://localhost:3000' })
    expect(readConfig({ HOST: 'tasks.internal', PORT: '4000' }).hub.apps).toEqual({ tasks: 'http://tasks.internal:4000' })
    expect(readConfig({ HOST: 'fd00::5' }).hub.apps).toEqual({ tasks: 'http://[fd00::5]:3000' })
  })

  it('TASKS_PUBLIC_URL names where browsers reach the pages, and the dashboard links there', () => {
    expect(readConfig({ PORT: '4000' }).tasks.publicUrl).toBe('http://localhost:4000')
    const config = readConfig({ TASKS_PUBLIC_URL: 'https://tasks.example.org/' })
    expect(config.tasks.publicUrl).toBe('https://tasks.example.org')
    expect(config.hub.apps).toEqual({ tasks: 'https://tasks.example.org' })
  })

  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'tasks.internal', 'host-1.example.org'])('accepts HOST=%s', (host) => {
    expect(readConfig({ HOST: host }).shared.host).toBe(host)
  })

  it('treats an empty value as unset', () => {
    expect(readConfig({ PORT: '', DATABASE_URL: ' ' }).tasks.port).toBe(3000)
  })

  it.each([
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80a'],
    ['LOG_LEVEL', 'verbose'],
    ['PERMISSIONS_ENABLED', 'yes please'],
    ['DATABASE_URL', 'sqlite:///tmp/x.db'],
    ['DATABASE_CONNECT_TIMEOUT', 'forever'],
    ['DATABASE_CONNECT_TIMEOUT', '0'],
    ['TASKS_APP_ID', 'has spaces'],
    ['TASKS_AUTH', 'password'],
    ['HUB_JWKS_URL', 'ftp://keys'],
    ['HUB_ISSUER', 'not a url'],
    ['TASKS_PUBLIC_URL', 'tasks.example.org'],
    ['HOST', 'not a host'],
    ['HOST', 'http://localhost'],
    ['HOST', '256.1.1.1.'],
    ['HOST', '-leading-hyphen'],
    ['TASKS_ALLOWED_HOSTS', 'localhost:3000,http://localhost:3000'],
    ['TASKS_ALLOWED_HOSTS', '*.example.org'],
    ['TASKS_ALLOWED_HOSTS', 'tasks.example.org:99999'],
    ['TASKS_ALLOWED_HOSTS', 'tasks.example.org/path'],
    ['TASKS_ALLOWED_HOSTS', 'user@tasks.example.org']
  ])('rejects %s=%s with an error naming the variable', (variable, value) => {
    const read = () => readConfig({ [variable]: value })
    expect(read).toThrow(ConfigError)
    expect(read).toThrow(new RegExp(`^${variable}: `))
  })
})
