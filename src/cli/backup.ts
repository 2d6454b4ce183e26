import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { DATA_DIR_SECRET_FILES, writeSecretFile } from '../hub/kernel/security/secret-files.js'
import type { Config } from '../shared/config.js'
import { SQLITE_DATABASE_FILE, openDatabase } from '../shared/database/connect.js'
import { readMigrationStatus } from '../shared/database/migrate.js'
import { HEARTH_VERSION } from '../shared/release.js'
import { DamagedBackupError, readArchive, writeArchive } from './backup-archive.js'
import { BACKUP_HELP } from './backup-help.js'
import { DamagedEncryptionError, WrongPassphraseError, decrypt, encrypt, isEncrypted } from './backup-encryption.js'
import type { TarEntry } from './tar.js'

export interface BackupValues {
  to?: string
  from?: string
  'data-dir'?: string
  'passphrase-file'?: string
  'secrets-only'?: boolean
}

interface Io {
  out: (line: string) => void
  err: (line: string) => void
}

/** A reason the command stops, said to the operator as it is (exit code 1). */
class Refusal extends Error {}

/** `backup` and `restore`; resolves to the exit code. */
export async function backupCommand(command: 'backup' | 'restore', config: Config, values: BackupValues, io: Io): Promise<number> {
  try {
    return command === 'backup' ? await backup(config, values, io) : await restore(values, io)
  } catch (error) {
    if (error instanceof Refusal || error instanceof DamagedBackupError || error instanceof DamagedEncryptionError || error instanceof WrongPassphraseError) {
      io.err(`${command} refused: ${error.message}`)
      return 1
    }
    throw error
  }
}

async function backup(config: Config, values: BackupValues, io: Io): Promise<number> {
  if (!values.to) {
    io.err(`backup needs --to FILE\n\n${BACKUP_HELP.backup}`)
    return 2
  }
  const secretsOnly = values['secrets-only'] ?? false
  const { dataDir, databaseUrl } = config.shared
  if (databaseUrl && !secretsOnly) {
    throw new Refusal('DATABASE_URL is set: back PostgreSQL up with pg_dump and the secrets with backup --secrets-only (docs/operations.md, "Backups")')
  }
  const destination = path.resolve(values.to)
  if (fs.existsSync(destination)) throw new Refusal(`${values.to} exists: a backup never replaces a file, name another`)
  if (!fs.existsSync(path.dirname(destination))) throw new Refusal(`the directory of ${values.to} does not exist`)
  const passphrase = readPassphrase(values['passphrase-file'])
  const createdAt = new Date()

  const secrets = DATA_DIR_SECRET_FILES.filter((name) => fs.existsSync(path.join(dataDir, name))).map((name) => ({ name, content: fs.readFileSync(path.join(dataDir, name)) }))
  const database = await databasePart(config, secretsOnly, path.dirname(destination), io)
  const archive = writeArchive(
    { version: HEARTH_VERSION, schemaVersion: database.schemaVersion, createdAt: createdAt.toISOString(), database: databaseUrl ? 'postgres' : 'sqlite' },
    [...database.files, ...secrets]
  )
  const content = passphrase === undefined ? archive : await encrypt(archive, passphrase)
  try {
    // 0600, complete or not at all, and never over a file made meanwhile.
    writeSecretFile(destination, content, { exclusive: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Refusal(`${values.to} exists: a backup never replaces a file, name another`)
    throw error
  }
  for (const note of secretsFromEnvironment(config)) io.err(`note: ${note} is set, so that secret is in your environment, not in the backup: keep it with the backup`)
  const names = [...database.files, ...secrets].map((file) => file.name).join(', ')
  io.out(`Backed up ${names} (schema ${database.schemaVersion ?? 'none'}) to ${destination}, ${content.length} bytes, ${passphrase === undefined ? 'not encrypted' : 'encrypted'}.`)
  return 0
}

async function restore(values: BackupValues, io: Io): Promise<number> {
  const { from, 'data-dir': dataDir } = values
  if (!from || !dataDir) {
    io.err(`restore needs --from FILE and --data-dir DIR\n\n${BACKUP_HELP.restore}`)
    return 2
  }
  const target = path.resolve(dataDir)
  const existing = fs.statSync(target, { throwIfNoEntry: false })
  if (existing && (!existing.isDirectory() || fs.readdirSync(target).length > 0)) {
    throw new Refusal(`${dataDir} is not an empty directory: restore writes only into an empty one, so nothing there is overwritten`)
  }
  const passphrase = readPassphrase(values['passphrase-file'])
  const file = readFile(from, 'the backup')
  let archive = file
  if (isEncrypted(file)) {
    if (passphrase === undefined) throw new Refusal('this backup is encrypted: give --passphrase-file')
    archive = await decrypt(file, passphrase)
  } else if (passphrase !== undefined) {
    io.err('note: this backup is not encrypted; --passphrase-file was not needed')
  }
  const { manifest, files } = readArchive(archive)

  fs.mkdirSync(target, { recursive: true, mode: 0o700 })
  fs.chmodSync(target, 0o700)
  for (const { name, content } of files) fs.writeFileSync(path.join(target, name), content, { mode: 0o600, flag: 'wx' })
  io.out(
    `Restored ${files.map((entry) => entry.name).join(', ')} into ${target}: Hearth ${manifest.version}, schema ${manifest.schemaVersion ?? 'none'}, backed up ${manifest.createdAt}.`
  )
  if (manifest.database === 'postgres') io.out('The database is in PostgreSQL: restore it with pg_restore (docs/operations.md, "Backups").')
  return 0
}

/** The database's file for the archive (none with --secrets-only or PostgreSQL) and its schema version. */
async function databasePart(config: Config, secretsOnly: boolean, scratchParent: string, io: Io): Promise<{ files: TarEntry[]; schemaVersion: string | null }> {
  if (config.shared.databaseUrl) return { files: [], schemaVersion: await postgresSchemaVersion(config, io) }
  if (secretsOnly) return { files: [], schemaVersion: withSqliteFile(liveDatabase(config.shared.dataDir), sqliteSchemaVersion) }
  return sqliteSnapshot(config.shared.dataDir, scratchParent)
}

/**
 * Copies the live database with SQLite's online backup API, all pages in one step: the copy is
 * one read transaction's snapshot, which writers in other processes (WAL) do not wait for and
 * cannot restart. A file copy of a live WAL database could miss the WAL or catch it half-written.
 */
async function sqliteSnapshot(dataDir: string, scratchParent: string): Promise<{ files: TarEntry[]; schemaVersion: string | null }> {
  const source = liveDatabase(dataDir)
  // Beside the backup, owner-only: the copy holds everything the database does.
  const scratch = fs.mkdtempSync(path.join(scratchParent, '.hearth-backup-'))
  try {
    const copyPath = path.join(scratch, SQLITE_DATABASE_FILE)
    const live = new SQLite(source, { fileMustExist: true })
    try {
      live.pragma('busy_timeout = 5000')
      await live.backup(copyPath, { progress: () => ALL_PAGES })
    } finally {
      live.close()
    }
    const schemaVersion = withSqliteFile(copyPath, (copy) => {
      // Rebuilt without free pages: smaller, and nothing deleted before secure_delete was on rides along (docs/privacy.md).
      copy.exec('VACUUM')
      const integrity = copy.pragma('integrity_check', { simple: true })
      if (integrity !== 'ok') throw new Refusal(`the copy of the database fails PRAGMA integrity_check: ${String(integrity)}`)
      return sqliteSchemaVersion(copy)
    })
    // Closing the copy's last connection folded its WAL into it: the one file is the whole database.
    return { files: [{ name: SQLITE_DATABASE_FILE, content: fs.readFileSync(copyPath) }], schemaVersion }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

function liveDatabase(dataDir: string): string {
  const file = path.join(dataDir, SQLITE_DATABASE_FILE)
  if (!fs.existsSync(file)) throw new Refusal(`there is no database at ${file}: is DATA_DIR right?`)
  return file
}

/** `work` on an existing SQLite file, closed after it, whatever happens. */
function withSqliteFile<T>(file: string, work: (db: SQLite.Database) => T): T {
  const db = new SQLite(file, { fileMustExist: true })
  try {
    return work(db)
  } finally {
    db.close()
  }
}

/** What a backup step may copy at once: everything (better-sqlite3 copies 100 pages a step otherwise). */
const ALL_PAGES = 0x7fffffff

function sqliteSchemaVersion(db: SQLite.Database): string | null {
  const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get()
  if (!table) return null
  const row = db.prepare('select max(name) as name from kysely_migration').get() as { name: string | null }
  return row.name
}

/** The schema the secrets go with; a PostgreSQL that does not answer does not stop a backup of the secrets. */
async function postgresSchemaVersion(config: Config, io: Io): Promise<string | null> {
  const { db } = openDatabase(config.shared)
  try {
    const { applied } = await readMigrationStatus(db)
    return [...applied.keys()].sort().at(-1) ?? null
  } catch (error) {
    io.err(`note: the schema version could not be read from PostgreSQL (${(error as Error).message}); the manifest says none`)
    return null
  } finally {
    await db.destroy()
  }
}

function secretsFromEnvironment(config: Config): string[] {
  const { cookieSecrets, signingKey, encryptionKey } = config.hub
  return [cookieSecrets && 'HUB_COOKIE_SECRET', signingKey !== undefined && 'HUB_SIGNING_KEY', encryptionKey && 'HUB_ENCRYPTION_KEY'].filter((name) => typeof name === 'string')
}

/** The passphrase in the file, without the newline an editor or `echo` ends it with. */
function readPassphrase(file: string | undefined): string | undefined {
  if (file === undefined) return undefined
  const passphrase = readFile(file, 'the passphrase file').toString('utf8').replace(/\r?\n$/, '')
  if (passphrase === '') throw new Refusal(`the passphrase file ${file} is empty`)
  return passphrase
}

function readFile(file: string, what: string): Buffer {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    throw new Refusal(`${what} cannot be read: ${(error as Error).message}`)
  }
}
