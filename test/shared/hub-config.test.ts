import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from '../../src/shared/config.js'

const OIDC = {
  HUB_IDP: 'oidc',
  HUB_IDP_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
  HUB_IDP_ISSUER: 'https://idp.example/',
  HUB_IDP_AUDIENCE: 'hearth'
}

describe('readConfig: hub section', () => {
  it('has safe defaults', () => {
    const { hub } = readConfig({})
    expect(hub).toEqual({
      port: 3001,
      publicUrl: 'http://localhost:3001',
      identityProvider: { kind: 'builtin' },
      signup: 'open',
      cookieSecrets: undefined,
      signingKey: undefined,
      sessionMaxAgeSeconds: 30 * 24 * 60 * 60,
      allowedOrigins: [],
      apps: { tasks: 'http://localhost:3000' },
      appNames: { tasks: 'Tasks' },
      appEvents: { tasks: 'http://localhost:3000/events/hearth' },
      appExports: { tasks: 'http://localhost:3000/export/hearth' },
      redisUrl: undefined,
      trustedProxies: [],
      allowedHosts: [],
      // Listening on 127.0.0.1 at its public URL's port: the other loopback names reach it too.
      loopbackHosts: ['127.0.0.1:3001', '[::1]:3001'],
      smtpUrl: undefined,
      mailFrom: 'Hearth <no-reply@localhost>',
      // No payment provider: plans are set by hand.
      billing: { graceDays: 7, stripe: undefined }
    })
  })

  it.each([
    [{ HOST: '0.0.0.0' }, ['127.0.0.1:3001', '[::1]:3001']],
    [{ HOST: 'localhost', HUB_PUBLIC_URL: 'http://127.0.0.1:3001' }, ['localhost:3001', '[::1]:3001']],
    [{ HOST: '127.0.0.2', HUB_PORT: '4001', HUB_PUBLIC_URL: 'http://localhost:4001' }, ['127.0.0.1:4001', '[::1]:4001', '127.0.0.2:4001']],
    // Reached through something else: a proxy on another port, a public name, TLS, another interface.
    [{ HUB_PORT: '4001' }, []],
    [{ HUB_PUBLIC_URL: 'https://localhost:3001' }, []],
    [{ HUB_PUBLIC_URL: 'https://hub.example' }, []],
    [{ HOST: '192.168.1.5' }, []]
  ])('answers the loopback names with its port only when browsers reach it directly on this machine: %o', (env, expected) => {
    expect(readConfig(env).hub.loopbackHosts).toEqual(expected)
  })

  it('sends mail from no-reply at the public URL\'s host by default', () => {
    expect(readConfig({ HUB_PUBLIC_URL: 'https://id.family.example:8443/' }).hub.mailFrom).toBe('Hearth <no-reply@id.family.example>')
  })

  it.each(['smtp://mail.example', 'smtps://user:p%40ss@mail.example:465', 'smtp://mail.example:587/?pool=true'])('accepts HUB_SMTP_URL %s', (url) => {
    expect(readConfig({ HUB_SMTP_URL: url }).hub.smtpUrl).toBe(url)
  })

  it.each(['no-reply@family.example', '"Hearth, the family hub" <hub@family.example>'])('accepts HUB_MAIL_FROM %s', (from) => {
    expect(readConfig({ HUB_MAIL_FROM: from }).hub.mailFrom).toBe(from)
  })

  it('reads every variable', () => {
    const signingKey = JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'x', d: 'd' })
    const { hub } = readConfig({
      ...OIDC,
      HUB_PORT: '4001',
      HUB_PUBLIC_URL: 'https://hub.example/',
      HUB_SIGNUP: 'closed',
      HUB_COOKIE_SECRET: `${'a'.repeat(32)}, ${'b'.repeat(40)}`,
      HUB_SIGNING_KEY: signingKey,
      HUB_SESSION_MAX_AGE: '3600',
      HUB_ALLOWED_ORIGINS: 'https://app.example, http://localhost:5173',
      HUB_APPS: 'tasks=https://tasks.example,notes=https://notes.example:8443',
      REDIS_URL: 'redis://127.0.0.1:6379',
      HUB_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8,fd00::1',
      HUB_ALLOWED_HOSTS: 'hub.internal:3001, ID.example',
      HUB_SMTP_URL: 'smtp://hub:secret@mail.example:587',
      HUB_MAIL_FROM: 'Family Hub <hub@family.example>',
      HUB_BILLING_GRACE_DAYS: '0',
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_def456',
      STRIPE_API_URL: 'http://127.0.0.1:12111'
    })
    expect(hub).toEqual({
      port: 4001,
      publicUrl: 'https://hub.example',
      identityProvider: {
        kind: 'oidc',
        jwksUrl: new URL(OIDC.HUB_IDP_JWKS_URL),
        issuer: OIDC.HUB_IDP_ISSUER,
        audience: OIDC.HUB_IDP_AUDIENCE
      },
      signup: 'closed',
      cookieSecrets: ['a'.repeat(32), 'b'.repeat(40)],
      signingKey,
      sessionMaxAgeSeconds: 3600,
      allowedOrigins: ['https://app.example', 'http://localhost:5173'],
      apps: { tasks: 'https://tasks.example', notes: 'https://notes.example:8443' },
      appNames: { tasks: 'Tasks', notes: 'Notes' },
      appEvents: {},
      appExports: {},
      redisUrl: 'redis://127.0.0.1:6379',
      trustedProxies: ['loopback', '10.0.0.0/8', 'fd00::1'],
      allowedHosts: ['hub.internal:3001', 'id.example'],
      loopbackHosts: [],
      smtpUrl: 'smtp://hub:secret@mail.example:587',
      mailFrom: 'Family Hub <hub@family.example>',
      billing: { graceDays: 0, stripe: { secretKey: 'sk_test_abc123', webhookSecret: 'whsec_def456', apiUrl: new URL('http://127.0.0.1:12111') } }
    })
  })

  it.each([
    ['HUB_PORT', { HUB_PORT: '70000' }],
    ['HUB_PUBLIC_URL', { HUB_PUBLIC_URL: 'ftp://hub.example' }],
    ['HUB_IDP', { HUB_IDP: 'saml' }],
    ['HUB_IDP_JWKS_URL', { HUB_IDP: 'oidc', HUB_IDP_ISSUER: 'i', HUB_IDP_AUDIENCE: 'a' }],
    ['HUB_IDP_JWKS_URL', { ...OIDC, HUB_IDP_JWKS_URL: 'not a url' }],
    ['HUB_IDP_ISSUER', { ...OIDC, HUB_IDP_ISSUER: '' }],
    ['HUB_IDP_AUDIENCE', { ...OIDC, HUB_IDP_AUDIENCE: ' ' }],
    ['HUB_SIGNUP', { HUB_SIGNUP: 'maybe' }],
    ['HUB_COOKIE_SECRET', { HUB_COOKIE_SECRET: 'short' }],
    ['HUB_COOKIE_SECRET', { HUB_COOKIE_SECRET: `${'a'.repeat(32)},short` }],
    ['HUB_SIGNING_KEY', { HUB_SIGNING_KEY: 'not json' }],
    ['HUB_SIGNING_KEY', { HUB_SIGNING_KEY: '{"kty":"OKP","crv":"Ed25519","x":"x"}' }],
    ['HUB_SIGNING_KEY', { HUB_SIGNING_KEY: '[]' }],
    ['HUB_SESSION_MAX_AGE', { HUB_SESSION_MAX_AGE: '30d' }],
    ['HUB_SESSION_MAX_AGE', { HUB_SESSION_MAX_AGE: '0' }],
    ['HUB_ALLOWED_ORIGINS', { HUB_ALLOWED_ORIGINS: 'app.example' }],
    ['HUB_ALLOWED_ORIGINS', { HUB_ALLOWED_ORIGINS: 'https://app.example/path' }],
    ['HUB_APPS', { HUB_APPS: 'tasks' }],
    ['HUB_APPS', { HUB_APPS: 'Tasks=http://localhost:3000' }],
    ['HUB_APPS', { HUB_APPS: 'tasks=not-a-url' }],
    ['REDIS_URL', { REDIS_URL: 'http://127.0.0.1:6379' }],
    ['HUB_TRUSTED_PROXIES', { HUB_TRUSTED_PROXIES: 'proxy.example' }],
    ['HUB_TRUSTED_PROXIES', { HUB_TRUSTED_PROXIES: '10.0.0.1,10.0.0.0/33' }],
    ['HUB_ALLOWED_HOSTS', { HUB_ALLOWED_HOSTS: 'https://hub.example' }],
    ['HUB_ALLOWED_HOSTS', { HUB_ALLOWED_HOSTS: 'hub.example,*.hub.example' }],
    ['HUB_SMTP_URL', { HUB_SMTP_URL: 'mail.example:587' }],
    ['HUB_SMTP_URL', { HUB_SMTP_URL: 'https://mail.example' }],
    ['HUB_SMTP_URL', { HUB_SMTP_URL: 'smtp://mail.example/inbox' }],
    ['HUB_MAIL_FROM', { HUB_MAIL_FROM: 'Hearth' }],
    ['HUB_MAIL_FROM', { HUB_MAIL_FROM: 'a@family.example, b@family.example' }],
    ['HUB_MAIL_FROM', { HUB_MAIL_FROM: 'Hearth <hub@family.example>\nBcc: x@evil.example' }],
    ['HUB_MAIL_FROM', { HUB_MAIL_FROM: 'Hearth <hub>' }],
    ['HUB_BILLING_GRACE_DAYS', { HUB_BILLING_GRACE_DAYS: '-1' }],
    ['HUB_BILLING_GRACE_DAYS', { HUB_BILLING_GRACE_DAYS: '7d' }],
    ['STRIPE_SECRET_KEY', { STRIPE_SECRET_KEY: 'pk_test_abc' }],
    ['STRIPE_WEBHOOK_SECRET', { STRIPE_SECRET_KEY: 'sk_test_abc' }],
    ['STRIPE_WEBHOOK_SECRET', { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'secret' }],
    ['STRIPE_WEBHOOK_SECRET', { STRIPE_WEBHOOK_SECRET: 'whsec_abc' }],
    ['STRIPE_API_URL', { STRIPE_API_URL: 'http://127.0.0.1:12111' }],
    ['STRIPE_API_URL', { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_URL: 'localhost:12111' }]
  ])('refuses a bad %s, naming it', (variable, env) => {
    expect(() => readConfig(env)).toThrowError(ConfigError)
    expect(() => readConfig(env)).toThrowError(new RegExp(`^${variable}: `))
  })
})
