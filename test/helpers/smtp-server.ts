import { type ParsedMail, simpleParser } from 'mailparser'
import { type AddressInfo, createServer } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { vi } from 'vitest'

export const SMTP_USER = 'hearth'
export const SMTP_PASSWORD = 'smtp secret'

/**
 * A real SMTP server on loopback that keeps what it receives, parsed. It asks for the test's
 * credentials and offers no STARTTLS (it has no certificate a client would trust). `port` 0 picks
 * a free one; a given port lets a test bring a server back where the hub expects it.
 */
export async function startSmtpServer(port = 0) {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail)
          callback()
        })
        .catch(callback)
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    /** Waits until `count` mails have arrived. */
    async waitFor(count: number): Promise<ParsedMail[]> {
      await vi.waitFor(() => {
        if (received.length < count) throw new Error(`${received.length} of ${count} mails received`)
      }, { timeout: 10_000, interval: 20 })
      return received
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** HUB_SMTP_URL for the test server on `port`, with its credentials. */
export function smtpUrlFor(port: number): string {
  return `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`
}

/** A loopback port free right now, for an SMTP server that is not started yet. */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
