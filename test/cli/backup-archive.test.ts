import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { DamagedBackupError, readArchive, writeArchive } from '../../src/cli/backup-archive.js'
import { DamagedEncryptionError, ENCRYPTED_MAGIC, WrongPassphraseError, decrypt, encrypt } from '../../src/cli/backup-encryption.js'
import { readTar, writeTar } from '../../src/cli/tar.js'

const MANIFEST = { version: '0.1.0', schemaVersion: '0059-group-plans', createdAt: '2026-11-26T18:00:00.000Z', database: 'sqlite' as const }
const FILES = [
  { name: 'hearth.db', content: Buffer.from('SQLite format 3\0 and pages') },
  { name: 'hub-encryption-key', content: Buffer.from('a key') }
]

/** An archive of `entries` as they stand, its manifest written by hand. */
function handMade(manifest: object, entries: { name: string; content: Buffer }[]): Buffer {
  return gzipSync(writeTar([{ name: 'manifest.json', content: Buffer.from(JSON.stringify(manifest)) }, ...entries], new Date()))
}
const listed = (entries: { name: string; content: Buffer }[]) =>
  entries.map(({ name, content }) => ({ name, bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') }))
const goodManifest = { format: 'hearth-backup', formatVersion: 1, ...MANIFEST }

describe('backup archive', () => {
  it('reads back what it wrote', () => {
    const { manifest, files } = readArchive(writeArchive(MANIFEST, FILES))
    expect(manifest).toMatchObject({ ...goodManifest, files: listed(FILES) })
    expect(files).toEqual(FILES)
  })

  it.each([
    ['a file outside the directory', [{ name: '../outside', content: Buffer.from('x') }], 'the backup holds a file restore does not know: ../outside'],
    ['a file no service makes', [{ name: 'notes.txt', content: Buffer.from('x') }], 'the backup holds a file restore does not know: notes.txt']
  ])('refuses %s, whose checksum matches', (_, entries, message) => {
    expect(() => readArchive(handMade({ ...goodManifest, files: listed(entries) }, entries))).toThrow(new DamagedBackupError(message))
  })

  it.each([
    ['another format', { ...goodManifest, format: 'other' }, 'this is not a Hearth backup'],
    ['a later version of the format', { ...goodManifest, formatVersion: 2 }, "the backup's format is version 2; this Hearth reads version 1"],
    ['files listed wrongly', { ...goodManifest, files: [{ name: 'hearth.db' }] }, 'manifest.json lists its files wrongly'],
    ['files in another order', { ...goodManifest, files: listed([...FILES].reverse()) }, "the archive's files are not the ones its manifest lists (hub-encryption-key)"]
  ])('refuses a manifest with %s', (_, manifest, message) => {
    expect(() => readArchive(handMade({ files: listed(FILES), ...manifest }, FILES))).toThrow(new DamagedBackupError(message))
  })

  it('refuses an archive whose first file is not the manifest', () => {
    expect(() => readArchive(gzipSync(writeTar(FILES, new Date())))).toThrow(new DamagedBackupError('the backup does not start with manifest.json'))
  })
})

describe('tar', () => {
  const tar = writeTar(FILES, new Date('2026-11-26T18:00:00Z'))
  const changed = (index: number, value: string) => {
    const copy = Buffer.from(tar)
    copy.write(value, index, 'latin1')
    return copy
  }

  it.each([
    ['a header whose checksum is wrong', changed(0, 'H'), "a header's checksum is wrong at byte 0"],
    ['an entry that is not a regular file', withChecksum(changed(156, '5')), 'an entry is not a regular file at byte 0'],
    ['a file cut short', tar.subarray(0, 512 + 10), 'hearth.db is cut short'],
    ['no end marker', tar.subarray(0, tar.length - 1024), 'the archive ends before its end marker']
  ])('refuses %s', (_, archive, message) => {
    expect(() => readTar(archive)).toThrow(message)
  })
})

describe('backup encryption', () => {
  const archive = Buffer.from('the archive')

  it('opens with the passphrase alone, and tells a wrong passphrase from a changed file', async () => {
    const sealed = await encrypt(archive, 'correct horse')
    expect(await decrypt(sealed, 'correct horse')).toEqual(archive)
    await expect(decrypt(sealed, 'wrong horse')).rejects.toThrow(WrongPassphraseError)
    const changed = Buffer.from(sealed)
    changed[sealed.length - 20] = (changed[sealed.length - 20] ?? 0) ^ 1
    await expect(decrypt(changed, 'correct horse')).rejects.toThrow(DamagedEncryptionError)
  })

  it.each([
    ['N above 2^20', 30, 8, 1],
    ['r above 16', 17, 200, 1],
    ['p of 0', 17, 8, 0]
  ])('refuses a header asking scrypt for %s, before deriving anything', async (_, log2N, r, p) => {
    const sealed = await encrypt(archive, 'correct horse')
    sealed.set([log2N, r, p], ENCRYPTED_MAGIC.length)
    await expect(decrypt(sealed, 'correct horse')).rejects.toThrow(new DamagedEncryptionError('the encrypted backup names scrypt parameters out of bounds'))
  })

  it('refuses a file shorter than its header and tag', async () => {
    await expect(decrypt(ENCRYPTED_MAGIC, 'correct horse')).rejects.toThrow(new DamagedEncryptionError('the encrypted backup is cut short'))
  })
})

/** The first header's checksum made right again after a change. */
function withChecksum(tar: Buffer): Buffer {
  const copy = Buffer.from(tar)
  copy.fill(0x20, 148, 156)
  let sum = 0
  for (let i = 0; i < 512; i++) sum += copy[i] ?? 0
  copy.write(`${sum.toString(8).padStart(7, '0')}\0`, 148, 'ascii')
  return copy
}
