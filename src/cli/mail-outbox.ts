import fs from 'node:fs/promises'
import path from 'node:path'
import { type AddressObject, simpleParser } from 'mailparser'
import type { Config } from '../shared/config.js'
import { OUTBOX_DIRECTORY } from '../hub/kernel/mail/transport.js'
import { escapeForTerminal } from './terminal-text.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from './mail-outbox-help.js'

export interface MailOutboxIo {
  out: (line: string) => void
  err: (line: string) => void
}

/** `npm run hub -- mail:outbox [--to EMAIL] [--limit N]`; resolves to the exit code (2 for a bad --limit). */
export async function mailOutbox(config: Config, options: { to?: string | undefined; limit?: string | undefined }, io: MailOutboxIo): Promise<number> {
  const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    io.err(`--limit must be an integer from 1 to ${MAX_LIMIT}.`)
    return 2
  }
  const directory = path.join(config.shared.dataDir, OUTBOX_DIRECTORY)
  const wanted = options.to?.trim().toLowerCase()
  let printed = 0
  // File names begin with the time they were written, so the newest sort last.
  for (const name of (await emlFilesIn(directory)).reverse()) {
    if (printed === limit) break
    const file = path.join(directory, name)
    const mail = await simpleParser(await fs.readFile(file))
    const recipients = addressesOf(mail.to)
    if (wanted !== undefined && !recipients.some((address) => address.toLowerCase() === wanted)) continue
    io.out(
      [file, `To: ${recipients.join(', ')}`, `Subject: ${mail.subject ?? ''}`, '', (mail.text ?? '').trimEnd(), '']
        .flatMap((line) => line.split('\n'))
        .map(escapeForTerminal)
        .join('\n')
    )
    printed += 1
  }
  if (printed === 0) io.err(wanted === undefined ? `No mail in ${directory}.` : `No mail to ${wanted} in ${directory}.`)
  return 0
}

async function emlFilesIn(directory: string): Promise<string[]> {
  try {
    return (await fs.readdir(directory)).filter((name) => name.endsWith('.eml')).sort()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field]
  return objects.flatMap((object) => object.value.flatMap((entry) => (entry.address ? [entry.address] : [])))
}
