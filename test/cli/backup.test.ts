import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { TASKS_COOKIE_SECRET_FILE, loadCookieSecrets } from '../../src/hub/kernel/security/cookie-secrets.js'
import { loadEncryptionKey } from '../../src/hub/kernel/security/secret-box.js'
import { DATA_DIR_SECRET_FILES } from '../../src/hub/kernel/security/secret-files.js'
import { useHubCli } from '../helpers/hub-cli.js'
import { freePort, startBuilt } from '../helpers/server-process.js'
import { LATEST_MIGRATION } from '../../src/shared/database/migrate.js'

const run = promisify(execFile)
const modeOf = (file: string) => fs.statSync(file).mode & 0o777
const EMAIL = 'ada@example.org'

interface Manifest {
  format: string
  version: string
  schemaVersion: string | null
  createdAt: string
  database: string
  files: { name: string; bytes: number; sha256: string }[]
}

describe('hub CLI: backup and restore', () => {
  const cli = useHubCli()
  let scratch = ''
  /** A path in the test's scratch folder, outside DATA_DIR. */
  const at = (name: string) => path.join(scratch, name)
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-backup-'))
  })
  afterEach(() => {
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  /** An install that has made every secret and holds one account. */
  async function seeded(): Promise<void> {
    expect(await runHubCli(['users:create', '--email', EMAIL], cli.io('quartz-lantern-meadow-7'))).toBe(0)
    expect(await runHubCli(['keys:rotate'], cli.io())).toBe(0)
    loadCookieSecrets(undefined, cli.dataDir)
    loadCookieSecrets(undefined, cli.dataDir, TASKS_COOKIE_SECRET_FILE)
    loadEncryptionKey(undefined, cli.dataDir)
  }
  const backup = (...args: string[]) => runHubCli(['backup', ...args], cli.io())
  const restore = (...args: string[]) => runHubCli(['restore', ...args], cli.io())
  const passphraseFile = (passphrase: string) => {
    const file = at(`passphrase-${passphrase.length}`)
    fs.writeFileSync(file, `${passphrase}\n`, { mode: 0o600 })
    return file
  }

  it('writes one 0600 archive that tar reads: manifest.json first, with version, schema version, time and checksums', async () => {
    await seeded()
    const before = Date.now()
    expect(await backup('--to', at('hearth.backup'))).toBe(0)
    expect(cli.output.err).toEqual([])
    expect(modeOf(at('hearth.backup'))).toBe(0o600)
    // Nothing but the archive is left beside it (the database's scratch copy is gone).
    expect(fs.readdirSync(scratch)).toEqual(['hearth.backup'])

    const { stdout } = await run('tar', ['-tzf', at('hearth.backup')])
    expect(stdout.trim().split('\n')).toEqual(['manifest.json', 'hearth.db', ...DATA_DIR_SECRET_FILES])
    const manifest = JSON.parse((await run('tar', ['-xzOf', at('hearth.backup'), 'manifest.json'])).stdout) as Manifest
    const packageVersion = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version
    expect(manifest).toMatchObject({ format: 'hearth-backup', version: packageVersion, schemaVersion: LATEST_MIGRATION, database: 'sqlite' })
    expect(Date.parse(manifest.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    for (const name of DATA_DIR_SECRET_FILES) {
      const sha256 = (await run('sha256sum', [path.join(cli.dataDir, name)])).stdout.split(' ')[0]
      expect(manifest.files.find((file) => file.name === name)?.sha256).toBe(sha256)
    }
    expect(cli.output.out.join('\n')).toContain(`to ${at('hearth.backup')}`)
  })

  it('restores into a new directory: the same secrets, the database with its account, the directory 0700 and every file 0600', async () => {
    await seeded()
    expect(await backup('--to', at('hearth.backup'))).toBe(0)
    const target = at('restored')
    expect(await restore('--from', at('hearth.backup'), '--data-dir', target)).toBe(0)

    expect(modeOf(target)).toBe(0o700)
    expect(fs.readdirSync(target).sort()).toEqual(['hearth.db', ...DATA_DIR_SECRET_FILES].sort())
    for (const name of fs.readdirSync(target)) expect([name, modeOf(path.join(target, name))]).toEqual([name, 0o600])
    for (const name of DATA_DIR_SECRET_FILES) expect(fs.readFileSync(path.join(target, name)).equals(fs.readFileSync(path.join(cli.dataDir, name)))).toBe(true)
    cli.output.out = []
    expect(await runHubCli(['users:promote', '--email', EMAIL], cli.io('', { DATA_DIR: target }))).toBe(0)
    expect(cli.output.out).toEqual([`${EMAIL} is now an administrator.`])
  })

  it('restores into an empty directory, and refuses one that is not empty or is a file, writing nothing', async () => {
    await seeded()
    expect(await backup('--to', at('hearth.backup'))).toBe(0)
    fs.mkdirSync(at('empty'), { mode: 0o755 })
    expect(await restore('--from', at('hearth.backup'), '--data-dir', at('empty'))).toBe(0)
    expect(modeOf(at('empty'))).toBe(0o700)

    fs.mkdirSync(at('used'))
    fs.writeFileSync(at('used/notes.txt'), 'mine')
    expect(await restore('--from', at('hearth.backup'), '--data-dir', at('used'))).toBe(1)
    expect(cli.output.err.at(-1)).toBe(`restore refused: ${at('used')} is not an empty directory: restore writes only into an empty one, so nothing there is overwritten`)
    expect(fs.readdirSync(at('used'))).toEqual(['notes.txt'])
    expect(await restore('--from', at('hearth.backup'), '--data-dir', at('used/notes.txt'))).toBe(1)
    expect(fs.readFileSync(at('used/notes.txt'), 'utf8')).toBe('mine')
  })

  it('never replaces an existing file with a backup, nor makes a missing directory', async () => {
    await seeded()
    fs.writeFileSync(at('taken'), 'precious')
    expect(await backup('--to', at('taken'))).toBe(1)
    expect(cli.output.err).toEqual([`backup refused: ${at('taken')} exists: a backup never replaces a file, name another`])
    expect(fs.readFileSync(at('taken'), 'utf8')).toBe('precious')
    expect(await backup('--to', at('missing/hearth.backup'))).toBe(1)
    expect(cli.output.err.at(-1)).toBe(`backup refused: the directory of ${at('missing/hearth.backup')} does not exist`)
  })

  it.each([
    ['a byte changed in the compressed stream', (archive: Buffer) => flipByte(archive, Math.floor(archive.length / 2)), /^restore refused: the backup is damaged/],
    ['the end cut off', (archive: Buffer) => archive.subarray(0, archive.length - 200), /^restore refused: the backup is damaged or truncated/],
    ['cut in half', (archive: Buffer) => archive.subarray(0, Math.floor(archive.length / 2)), /^restore refused: the backup is damaged or truncated/],
    ['a byte of the database changed and the gzip made anew', (archive: Buffer) => regzipped(archive, (tar) => flipByte(tar, 3 * 512 + 4000)), /^restore refused: hearth\.db does not match its checksum in the manifest$/],
    ['a file dropped from the tar', (archive: Buffer) => regzipped(archive, (tar) => withoutLastEntries(tar)), /^restore refused: the manifest lists 5 files, the archive holds/],
    ['not a backup at all', () => Buffer.from('hello'), /^restore refused: the backup is damaged or truncated/]
  ])('refuses an archive with %s before writing anything', async (_, damage, message) => {
    await seeded()
    expect(await backup('--to', at('hearth.backup'))).toBe(0)
    fs.writeFileSync(at('damaged.backup'), damage(fs.readFileSync(at('hearth.backup'))))
    expect(await restore('--from', at('damaged.backup'), '--data-dir', at('restored'))).toBe(1)
    expect(cli.output.err.at(-1)).toMatch(message)
    expect(fs.existsSync(at('restored'))).toBe(false)
  })

  it('encrypts with --passphrase-file, and refuses a restore without the passphrase, with a wrong one or of a changed file', async () => {
    await seeded()
    expect(await backup('--to', at('sealed.backup'), '--passphrase-file', passphraseFile('correct horse battery staple'))).toBe(0)
    expect(cli.output.out.at(-1)).toMatch(/, encrypted\.$/)
    const sealed = fs.readFileSync(at('sealed.backup'))
    expect(modeOf(at('sealed.backup'))).toBe(0o600)
    // Neither tar nor gzip can read it, and no secret shows through.
    expect(sealed.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(false)
    expect(sealed.includes(fs.readFileSync(path.join(cli.dataDir, 'hub-encryption-key')))).toBe(false)
    expect(sealed.toString('latin1')).toMatch(/^Hearth backup, encrypted: scrypt \+ AES-256-GCM, v1\n/)

    expect(await restore('--from', at('sealed.backup'), '--data-dir', at('restored'))).toBe(1)
    expect(cli.output.err.at(-1)).toBe('restore refused: this backup is encrypted: give --passphrase-file')
    expect(await restore('--from', at('sealed.backup'), '--data-dir', at('restored'), '--passphrase-file', passphraseFile('wrong horse'))).toBe(1)
    expect(cli.output.err.at(-1)).toBe('restore refused: the passphrase is wrong')
    fs.writeFileSync(at('changed.backup'), flipByte(sealed, sealed.length - 100))
    expect(await restore('--from', at('changed.backup'), '--data-dir', at('restored'), '--passphrase-file', passphraseFile('correct horse battery staple'))).toBe(1)
    expect(cli.output.err.at(-1)).toBe('restore refused: the encrypted backup was changed or cut short: its authentication tag does not verify')
    fs.writeFileSync(at('cut.backup'), sealed.subarray(0, sealed.length - 1))
    expect(await restore('--from', at('cut.backup'), '--data-dir', at('restored'), '--passphrase-file', passphraseFile('correct horse battery staple'))).toBe(1)
    expect(fs.existsSync(at('restored'))).toBe(false)

    expect(await restore('--from', at('sealed.backup'), '--data-dir', at('restored'), '--passphrase-file', passphraseFile('correct horse battery staple'))).toBe(0)
    expect(fs.readdirSync(at('restored')).sort()).toEqual(['hearth.db', ...DATA_DIR_SECRET_FILES].sort())
  })

  it('says which secrets come from the environment, so are not in the backup', async () => {
    await seeded()
    const env = { HUB_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64url'), HUB_COOKIE_SECRET: 'x'.repeat(40) }
    expect(await runHubCli(['backup', '--to', at('hearth.backup')], cli.io('', env))).toBe(0)
    expect(cli.output.err).toEqual([
      'note: HUB_COOKIE_SECRET is set, so that secret is in your environment, not in the backup: keep it with the backup',
      'note: HUB_ENCRYPTION_KEY is set, so that secret is in your environment, not in the backup: keep it with the backup'
    ])
  })

  it('refuses an empty passphrase file, and notes a passphrase an unencrypted backup did not need', async () => {
    await seeded()
    fs.writeFileSync(at('empty-passphrase'), '\n')
    expect(await backup('--to', at('hearth.backup'), '--passphrase-file', at('empty-passphrase'))).toBe(1)
    expect(cli.output.err).toEqual([`backup refused: the passphrase file ${at('empty-passphrase')} is empty`])
    expect(fs.existsSync(at('hearth.backup'))).toBe(false)
    expect(await backup('--to', at('hearth.backup'))).toBe(0)
    expect(await restore('--from', at('hearth.backup'), '--data-dir', at('restored'), '--passphrase-file', passphraseFile('not needed'))).toBe(0)
    expect(cli.output.err.at(-1)).toBe('note: this backup is not encrypted; --passphrase-file was not needed')
  })

  it('--secrets-only leaves the database out', async () => {
    await seeded()
    expect(await backup('--to', at('secrets.backup'), '--secrets-only')).toBe(0)
    expect((await run('tar', ['-tzf', at('secrets.backup')])).stdout.trim().split('\n')).toEqual(['manifest.json', ...DATA_DIR_SECRET_FILES])
    const manifest = JSON.parse((await run('tar', ['-xzOf', at('secrets.backup'), 'manifest.json'])).stdout) as Manifest
    expect(manifest).toMatchObject({ database: 'sqlite', schemaVersion: LATEST_MIGRATION })
  })

  it('with DATABASE_URL, refuses a backup of the database and points to pg_dump', async () => {
    expect(await runHubCli(['backup', '--to', at('hearth.backup')], cli.io('', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }))).toBe(1)
    expect(cli.output.err).toEqual(['backup refused: DATABASE_URL is set: back PostgreSQL up with pg_dump and the secrets with backup --secrets-only (docs/operations.md, "Backups")'])
    expect(fs.existsSync(at('hearth.backup'))).toBe(false)
  })

  it('refuses a DATA_DIR without a database rather than back up nothing', async () => {
    expect(await backup('--to', at('hearth.backup'))).toBe(1)
    expect(cli.output.err).toEqual([`backup refused: there is no database at ${path.join(cli.dataDir, 'hearth.db')}: is DATA_DIR right?`])
  })
})

/**
 * The list of secrets is one place (DATA_DIR_SECRET_FILES); this is what keeps it complete: the
 * services, started on a fresh DATA_DIR and used, make no file the backup leaves out but the
 * database's own and the outbox of mail.
 */
describe('backup: every file the services make in DATA_DIR', () => {
  let scratch = ''
  afterEach(() => {
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  it('is in the backup, but for the database files and the mail outbox', async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-backup-files-'))
    const dataDir = path.join(scratch, 'data')
    const hubPort = await freePort()
    const server = await startBuilt('dist/server/main.js', { DATA_DIR: dataDir, HUB_PORT: String(hubPort), HUB_PUBLIC_URL: `http://localhost:${hubPort}` })
    try {
      const signup = await fetch(`http://localhost:${hubPort}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: 'quartz-lantern-meadow-7' })
      })
      expect(signup.status).toBe(200)
      expect((await fetch(`${server.url}/tasks`, { headers: { 'x-user-id': 'someone' } })).status).toBe(200)
    } finally {
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
    const made = fs.readdirSync(dataDir).filter((name) => !['hearth.db', 'hearth.db-wal', 'hearth.db-shm', 'outbox'].includes(name))
    const output: string[] = []
    const io = { env: { DATA_DIR: dataDir }, readStdin: async () => '', out: (line: string) => output.push(line), err: (line: string) => output.push(line) }
    expect(await runHubCli(['backup', '--to', path.join(scratch, 'hearth.backup')], io)).toBe(0)
    const listed = (await run('tar', ['-tzf', path.join(scratch, 'hearth.backup')])).stdout.trim().split('\n')
    expect(made.sort()).toEqual(listed.filter((name) => name !== 'manifest.json' && name !== 'hearth.db').sort())
    expect(made.sort()).toEqual([...DATA_DIR_SECRET_FILES].sort())
  })
})

function flipByte(content: Buffer, index: number): Buffer {
  const copy = Buffer.from(content)
  copy[index] = (copy[index] ?? 0) ^ 0xff
  return copy
}

/** The archive with its tar changed by `change`, compressed again: gzip's own checks pass. */
function regzipped(archive: Buffer, change: (tar: Buffer) => Buffer): Buffer {
  return gzipSync(change(gunzipSync(archive)))
}

/** The tar without its last file (the end marker kept): the second header from the end starts it. */
function withoutLastEntries(tar: Buffer): Buffer {
  const headers: number[] = []
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const block = tar.subarray(offset, offset + 512)
    if (block.every((byte) => byte === 0)) break
    headers.push(offset)
    offset += 512 + Math.ceil(parseInt(block.subarray(124, 136).toString('ascii'), 8) / 512) * 512
  }
  const last = headers.at(-1) ?? 0
  return Buffer.concat([tar.subarray(0, last), Buffer.alloc(1024)])
}
