import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { USAGE, runHubCli } from '../../src/cli/hub-commands.js'
import { passwordResetMail } from '../../src/hub/kernel/mail/templates.js'
import { OUTBOX_DIRECTORY, createMailTransport } from '../../src/hub/kernel/mail/transport.js'
import { SIGNING_KEYS_FILE } from '../../src/hub/kernel/tokens/keyring.js'
import { useHubCli } from '../helpers/hub-cli.js'

describe('hub CLI', () => {
  const cli = useHubCli()
  const { output, io } = cli

  it('prints its usage with --help', async () => {
    expect(await runHubCli(['--help'], io())).toBe(0)
    expect(output.out).toEqual([USAGE])
  })

  it('refuses an unknown command', async () => {
    expect(await runHubCli(['users:rename'], io())).toBe(2)
    expect(output.err[0]).toMatch(/^Unknown command: users:rename/)
  })

  it('creates a user from the password on stdin, with the sign-up rules', async () => {
    expect(await runHubCli(['users:create', '--email', 'Ada@Example.com'], io('correct horse battery staple\n'))).toBe(0)
    expect(output.out[0]).toMatch(/^Created ada@example\.com with id [0-9a-f-]{36}\.$/)
    const row = await cli.withDatabase((db) => db.selectFrom('users').selectAll().executeTakeFirstOrThrow())
    expect(row.email).toBe('ada@example.com')
    // No language chosen: the person's browser decides their pages and mail (test/hub/features/account/mail-language.test.ts).
    expect(row.locale).toBeNull()

    expect(await runHubCli(['users:create', '--email', 'ada@example.com'], io('correct horse battery staple'))).toBe(1)
    expect(await runHubCli(['users:create', '--email', 'bob@example.com'], io('password1\n'))).toBe(1)
    expect(await runHubCli(['users:create'], io('whatever'))).toBe(2)
    expect(output.err).toEqual([
      'An account with this email already exists',
      'Password is too common; choose one that is harder to guess',
      'users:create needs --email'
    ])
  })

  it('disables and enables an account by email, saying how many sessions it ended', async () => {
    expect(await runHubCli(['users:create', '--email', 'ada@example.com'], io('correct horse battery staple'))).toBe(0)
    expect(await runHubCli(['users:disable', '--email', 'Ada@Example.com'], io())).toBe(0)
    expect(await runHubCli(['users:enable', '--email', 'ada@example.com'], io())).toBe(0)
    expect(output.out.slice(1)).toEqual(['Disabled ada@example.com and ended 0 sessions.', 'Enabled ada@example.com.'])

    expect(await runHubCli(['users:disable', '--email', 'bob@example.com'], io())).toBe(1)
    expect(await runHubCli(['users:enable'], io())).toBe(2)
    expect(output.err).toEqual(['No account has this email', 'users:enable needs --email'])
  })

  it('refuses account commands when accounts live at an external provider', async () => {
    const oidc = { HUB_IDP: 'oidc', HUB_IDP_JWKS_URL: 'https://idp.example/jwks', HUB_IDP_ISSUER: 'https://idp.example', HUB_IDP_AUDIENCE: 'hearth' }
    for (const command of ['users:create', 'users:disable', 'users:enable']) {
      expect(await runHubCli([command, '--email', 'ada@example.com'], io('correct horse battery staple', oidc))).toBe(1)
    }
    expect(output.err).toEqual(Array(3).fill('HUB_IDP is oidc: accounts live at the external identity provider, not in the hub'))
  })

  it('rotates the signing keys in DATA_DIR, keeping the old one', async () => {
    expect(await runHubCli(['keys:rotate'], io())).toBe(0)
    expect(await runHubCli(['keys:rotate'], io())).toBe(0)
    const keys = JSON.parse(fs.readFileSync(path.join(cli.dataDir, SIGNING_KEYS_FILE), 'utf8')) as { retiredAt?: string; privateJwk: { alg: string } }[]
    // Each rotation makes a key of every algorithm and retires the previous ones.
    expect(keys.map((key) => [key.privateJwk.alg, key.retiredAt === undefined])).toEqual([
      ['EdDSA', true],
      ['RS256', true],
      ['ES256', true],
      ['EdDSA', false],
      ['RS256', false],
      ['ES256', false]
    ])
    expect(fs.statSync(path.join(cli.dataDir, SIGNING_KEYS_FILE)).mode & 0o777).toBe(0o600)
  })

  describe('mail:outbox', () => {
    /** Writes a password-reset mail to the outbox as the hub's sender does, at `minute` past midnight. */
    const writeResetMail = async (to: string, token: string, minute: number) => {
      const outbox = createMailTransport({ smtpUrl: undefined, from: 'Hearth <no-reply@localhost>', dataDir: cli.dataDir })
      const mail = passwordResetMail({ publicUrl: 'http://localhost:3001', language: 'es', email: to, token })
      const { file } = await outbox.deliver({ id: `mail-${minute}`, attempts: 1, to, userId: null, ...mail }, new Date(Date.UTC(2030, 0, 1, 0, minute)))
      return file ?? ''
    }

    it('prints the newest mails: path, recipient, subject and text, links included', async () => {
      const older = await writeResetMail('ada@example.com', 'token-one', 1)
      const newer = await writeResetMail('bob@example.com', 'token-two', 2)
      expect(await runHubCli(['mail:outbox'], io())).toBe(0)
      expect(output.out).toHaveLength(2)
      expect(output.out[0]?.startsWith(`${newer}\nTo: bob@example.com\nSubject: Restablece tu contraseña de Hearth\n\nAlguien ha pedido`)).toBe(true)
      expect(output.out[0]).toContain('\nhttp://localhost:3001/reset-password#token=token-two&email=bob%40example.com\n')
      expect(output.out[1]?.startsWith(`${older}\nTo: ada@example.com\n`)).toBe(true)
      expect(path.dirname(older)).toBe(path.join(cli.dataDir, OUTBOX_DIRECTORY))
    })

    it('keeps the mails to one address with --to, and as many as --limit says', async () => {
      for (const [minute, to] of ['ada@example.com', 'bob@example.com', 'ada@example.com', 'ada@example.com'].entries()) {
        await writeResetMail(to, `token-${minute}`, minute)
      }
      expect(await runHubCli(['mail:outbox', '--to', 'Ada@Example.com', '--limit', '2'], io())).toBe(0)
      expect(output.out.map((mail) => mail.match(/#token=([^&\s]+)/)?.[1])).toEqual(['token-3', 'token-2'])

      expect(await runHubCli(['mail:outbox', '--to', 'cy@example.com'], io())).toBe(0)
      expect(await runHubCli(['mail:outbox', '--limit', '0'], io())).toBe(2)
      expect(output.err).toEqual([`No mail to cy@example.com in ${path.join(cli.dataDir, OUTBOX_DIRECTORY)}.`, '--limit must be an integer from 1 to 100.'])
    })

    it('says so when the outbox is empty', async () => {
      expect(await runHubCli(['mail:outbox'], io())).toBe(0)
      expect(output.err).toEqual([`No mail in ${path.join(cli.dataDir, OUTBOX_DIRECTORY)}.`])
    })
  })

  it('names a bad variable and exits 1', async () => {
    expect(await runHubCli(['keys:rotate'], io('', { HUB_SIGNUP: 'maybe' }))).toBe(1)
    expect(output.err[0]).toMatch(/^Invalid configuration: HUB_SIGNUP: /)
  })
})
