import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { DATA_DIR_SECRET_FILES } from '../hub/kernel/security/secret-files.js'
import { SQLITE_DATABASE_FILE } from '../shared/database/connect.js'
import { type TarEntry, TarFormatError, readTar, writeTar } from './tar.js'

/**
 * A backup is a gzip'd tar: `manifest.json` first, then the files of DATA_DIR it lists, each with
 * its size and SHA-256. Reading one checks all of it before handing anything out.
 */
export const MANIFEST_FILE = 'manifest.json'
const FORMAT = 'hearth-backup'
const FORMAT_VERSION = 1

export interface BackupManifest {
  format: typeof FORMAT
  formatVersion: typeof FORMAT_VERSION
  /** package.json's version of the Hearth that wrote it. */
  version: string
  /** The last migration applied to the database, null when it had none. */
  schemaVersion: string | null
  createdAt: string
  /** `postgres`: the database is not in the archive but in a pg_dump made beside it. */
  database: 'sqlite' | 'postgres'
  files: { name: string; bytes: number; sha256: string }[]
}

export class DamagedBackupError extends Error {}

/** Only these names come out of an archive, so none can write outside the target directory. */
const RESTORABLE = new Set<string>([SQLITE_DATABASE_FILE, ...DATA_DIR_SECRET_FILES])

export function writeArchive(manifest: Omit<BackupManifest, 'format' | 'formatVersion' | 'files'>, files: readonly TarEntry[]): Buffer {
  const full: BackupManifest = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    ...manifest,
    files: files.map(({ name, content }) => ({ name, bytes: content.length, sha256: sha256(content) }))
  }
  const entries = [{ name: MANIFEST_FILE, content: Buffer.from(`${JSON.stringify(full, null, 2)}\n`) }, ...files]
  return gzipSync(writeTar(entries, new Date(manifest.createdAt)))
}

/** The manifest and files of an archive whose every checksum matches; anything else is refused. */
export function readArchive(archive: Buffer): { manifest: BackupManifest; files: TarEntry[] } {
  let entries: TarEntry[]
  try {
    entries = readTar(gunzipSync(archive))
  } catch (error) {
    if (error instanceof TarFormatError) throw new DamagedBackupError(`the backup is damaged: ${error.message}`)
    // zlib: a bad header, a CRC or length that does not match, the end of the file too early.
    throw new DamagedBackupError(`the backup is damaged or truncated (${(error as Error).message})`)
  }
  const [first, ...files] = entries
  if (first?.name !== MANIFEST_FILE) throw new DamagedBackupError(`the backup does not start with ${MANIFEST_FILE}`)
  const manifest = parseManifest(first.content)
  if (files.length !== manifest.files.length) throw new DamagedBackupError(`the manifest lists ${manifest.files.length} files, the archive holds ${files.length}`)
  manifest.files.forEach((listed, index) => {
    const file = files[index]
    if (!RESTORABLE.has(listed.name)) throw new DamagedBackupError(`the backup holds a file restore does not know: ${listed.name}`)
    if (file?.name !== listed.name) throw new DamagedBackupError(`the archive's files are not the ones its manifest lists (${listed.name})`)
    if (file.content.length !== listed.bytes || sha256(file.content) !== listed.sha256) {
      throw new DamagedBackupError(`${listed.name} does not match its checksum in the manifest`)
    }
  })
  return { manifest, files }
}

function parseManifest(content: Buffer): BackupManifest {
  let manifest: Partial<BackupManifest>
  try {
    manifest = JSON.parse(content.toString('utf8')) as Partial<BackupManifest>
  } catch {
    throw new DamagedBackupError(`${MANIFEST_FILE} is not JSON`)
  }
  if (manifest.format !== FORMAT) throw new DamagedBackupError('this is not a Hearth backup')
  if (manifest.formatVersion !== FORMAT_VERSION) {
    throw new DamagedBackupError(`the backup's format is version ${String(manifest.formatVersion)}; this Hearth reads version ${FORMAT_VERSION}`)
  }
  const files = manifest.files
  if (!Array.isArray(files) || !files.every((file) => typeof file?.name === 'string' && typeof file.bytes === 'number' && typeof file.sha256 === 'string')) {
    throw new DamagedBackupError(`${MANIFEST_FILE} lists its files wrongly`)
  }
  return manifest as BackupManifest
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
