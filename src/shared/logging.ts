import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import pino, { type Logger } from 'pino'
import type { LogLevel } from './config.js'

export type { Logger }

/**
 * Identity headers and credentials never reach the log in full. Fastify's request serializer
 * logs no headers; these paths guard anything that logs a request or response object anyway.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-user-id"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-user-id"]'
]

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination)
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Keeps a caller's well-formed `x-request-id` (a gateway's trace id); otherwise a fresh UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id']
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

/** A short, stable stand-in for an identifier in logs: enough to correlate, not to reveal. */
export function maskIdentifier(value: string): string {
  return value.length <= 4 ? '***' : `${value.slice(0, 2)}***${value.slice(-2)}`
}
