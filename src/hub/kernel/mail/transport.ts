import fs from 'node:fs/promises'
import path from 'node:path'
import type nodemailer from 'nodemailer'
import type { Transporter } from 'nodemailer'
import { loadOnce } from '../../../shared/load-once.js'
import { maskIdentifier } from '../../../shared/logging.js'
import type { QueuedMail } from './queue.js'

/** Where mail goes without HUB_SMTP_URL, under DATA_DIR. */
export const OUTBOX_DIRECTORY = 'outbox'
/** The command that prints the newest mails of the outbox, links included. */
export const OUTBOX_COMMAND = 'npm run hub -- mail:outbox'

export function outboxDirectory(dataDir: string): string {
  return path.join(dataDir, OUTBOX_DIRECTORY)
}

export interface MailTransport {
  /** Delivers one mail; answers what the log may say about where it went (never the body). */
  deliver(mail: QueuedMail, now: Date): Promise<Record<string, string>>
  close(): void
}

export interface MailTransportOptions {
  smtpUrl: string | undefined
  from: string
  dataDir: string
}

/**
 * nodemailer waits minutes by default on a silent server; these keep one delivery well inside the
 * queue's claim (CLAIM_MS), so no other sender takes the mail while it is still being sent.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 }
/** The longest one delivery waits on a silent server: connecting, the greeting, then a silent minute. */
export const SMTP_DELIVERY_MAX_MS = SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout

/** SMTP with HUB_SMTP_URL (STARTTLS when the server offers it, nodemailer's default), else the outbox. */
export function createMailTransport(options: MailTransportOptions): MailTransport {
  return options.smtpUrl === undefined ? outboxTransport(options) : smtpTransport(options.smtpUrl, options.from)
}

/**
 * nodemailer's transporter, made with the first mail: a hub that sends none (most of its time)
 * never loads the library. Closing one never made closes nothing.
 */
function lazyTransporter<Sent>(create: (library: typeof nodemailer) => Transporter<Sent>) {
  let made: Transporter<Sent> | undefined
  const transporter = loadOnce(async () => {
    made = create((await import('nodemailer')).default)
    return made
  })
  return { transporter, close: () => made?.close() }
}

function smtpTransport(url: string, from: string): MailTransport {
  const { transporter, close } = lazyTransporter((library) => library.createTransport({ url, ...SMTP_TIMEOUTS }))
  return {
    async deliver(mail) {
      await (await transporter()).sendMail({ from, ...messageOf(mail) })
      return { to: maskIdentifier(mail.to) }
    },
    close
  }
}

/**
 * Each mail as an RFC 5322 `.eml` file readable by its owner only (it carries tokens), named so
 * that names sort oldest first: `mail:outbox` shows the newest. Beside it, a `.txt` file of the
 * same name holds To, Subject and the text part as UTF-8 text: the `.eml`'s parts are
 * quoted-printable, which breaks a long link into lines ending in `=` and writes its `=` as `=3D`,
 * so a link copied from there does not work; one copied from the `.txt` does.
 */
function outboxTransport({ from, dataDir }: MailTransportOptions): MailTransport {
  const directory = outboxDirectory(dataDir)
  const { transporter, close } = lazyTransporter((library) => library.createTransport({ streamTransport: true, buffer: true }))
  return {
    async deliver(mail, now) {
      const { message } = await (await transporter()).sendMail({ from, ...messageOf(mail) })
      await fs.mkdir(directory, { recursive: true, mode: 0o700 })
      const name = path.join(directory, `${now.toISOString().replace(/[:.]/g, '-')}-${mail.id}`)
      const file = `${name}.eml`
      await fs.writeFile(file, message, { mode: 0o600, flag: 'wx' })
      await fs.writeFile(`${name}.txt`, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`, { mode: 0o600, flag: 'wx' })
      return { file }
    },
    close
  }
}

function messageOf(mail: QueuedMail) {
  return { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html }
}
