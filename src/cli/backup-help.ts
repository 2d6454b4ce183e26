// The backup and restore commands' usage, help and options, apart from backup.ts so that `--help`
// and the dispatch (hub-commands.ts) load none of the code that runs them.

export const BACKUP_OPTIONS = {
  from: { type: 'string' },
  'data-dir': { type: 'string' },
  'passphrase-file': { type: 'string' },
  'secrets-only': { type: 'boolean' }
} as const

export const BACKUP_USAGE = `  npm run hub -- backup --to FILE [--passphrase-file F] [--secrets-only]
                                                writes the database and DATA_DIR's secrets into one archive, services running
  npm run hub -- restore --from FILE --data-dir DIR [--passphrase-file F]
                                                restores a backup into an empty directory`

export const BACKUP_HELP = {
  backup: `Usage: npm run hub -- backup --to FILE [--passphrase-file F] [--secrets-only]

Writes one archive (a gzip'd tar, manifest.json first) while the services keep running: a
consistent copy of the SQLite database, made with SQLite's online backup, and every secret the
services keep in DATA_DIR (cookie keys, signing keys, the encryption key of two-step sign-in). The
manifest gives Hearth's version, the schema version (the last migration), the time and each file's
SHA-256. The file is made 0600; an existing FILE is never replaced. With DATABASE_URL (PostgreSQL)
only --secrets-only is allowed: the database is backed up with pg_dump (docs/operations.md, "Backups").

Options:
  --to FILE              where to write the backup; must not exist
  --passphrase-file F    encrypts the backup with the passphrase in F (scrypt, AES-256-GCM)
  --secrets-only         the secrets alone, without the database`,
  restore: `Usage: npm run hub -- restore --from FILE --data-dir DIR [--passphrase-file F]

Restores a backup into DIR, which must be empty or not exist yet; then start the services with
DATA_DIR=DIR. Every checksum is checked first: a damaged or truncated backup is refused before
anything is written. DIR is made 0700 and its files 0600.

Options:
  --from FILE            the backup
  --data-dir DIR         the empty directory to restore into
  --passphrase-file F    the passphrase of an encrypted backup`
} as const
