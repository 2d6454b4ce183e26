/**
 * The POSIX ustar format, as much of it as a backup needs: regular files with short names, in
 * memory. A standard format, so a backup can be looked into with `tar -tzvf` without Hearth.
 */

export interface TarEntry {
  name: string
  content: Buffer
}

export class TarFormatError extends Error {}

const BLOCK = 512
const NAME_BYTES = 100
/** Owner read and write: what restore gives every file anyway. */
const FILE_MODE = 0o600

export function writeTar(entries: readonly TarEntry[], mtime: Date): Buffer {
  const blocks: Buffer[] = []
  for (const entry of entries) {
    blocks.push(header(entry, mtime), entry.content, Buffer.alloc(padding(entry.content.length)))
  }
  // The end of the archive: two zero blocks.
  blocks.push(Buffer.alloc(2 * BLOCK))
  return Buffer.concat(blocks)
}

/** Every file of the archive in order; anything but a well-formed archive of regular files is refused. */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = []
  let offset = 0
  for (;;) {
    if (offset + BLOCK > archive.length) throw new TarFormatError('the archive ends before its end marker')
    const block = archive.subarray(offset, offset + BLOCK)
    if (block.every((byte) => byte === 0)) return entries
    if (octal(block, 148, 8) !== checksum(block)) throw new TarFormatError(`a header's checksum is wrong at byte ${offset}`)
    const type = String.fromCharCode(block[156] ?? 0)
    if (type !== '0' && type !== '\0') throw new TarFormatError(`an entry is not a regular file at byte ${offset}`)
    const name = text(block, 0, NAME_BYTES)
    const size = octal(block, 124, 12)
    const start = offset + BLOCK
    if (start + size > archive.length) throw new TarFormatError(`${name} is cut short`)
    entries.push({ name, content: archive.subarray(start, start + size) })
    offset = start + size + padding(size)
  }
}

function header({ name, content }: TarEntry, mtime: Date): Buffer {
  if (Buffer.byteLength(name) >= NAME_BYTES) throw new Error(`${name}: name too long for the archive`)
  const block = Buffer.alloc(BLOCK)
  block.write(name, 0, 'utf8')
  writeOctal(block, 100, 8, FILE_MODE)
  writeOctal(block, 108, 8, 0)
  writeOctal(block, 116, 8, 0)
  writeOctal(block, 124, 12, content.length)
  writeOctal(block, 136, 12, Math.floor(mtime.getTime() / 1000))
  block.write('0', 156, 'ascii')
  block.write('ustar\u000000', 257, 'ascii')
  writeOctal(block, 148, 8, checksum(block))
  return block
}

/** The sum of the header's bytes, its own checksum field counted as eight spaces. */
function checksum(block: Buffer): number {
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0)
  return sum
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii')
}

function octal(block: Buffer, offset: number, length: number): number {
  const field = text(block, offset, length).trim()
  if (!/^[0-7]+$/.test(field)) throw new TarFormatError('a header holds a number that is not octal')
  return parseInt(field, 8)
}

function text(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length)
  const end = field.indexOf(0)
  return field.subarray(0, end === -1 ? length : end).toString('utf8')
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK
}
