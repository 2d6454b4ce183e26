import type { ConnectionError } from 'fastify'
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from '../logging.js'

/** The status Node itself would answer, and what the client is told. */
function answerFor(error: ConnectionError): { status: number; message: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Request was not received in time' }
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'Request headers are too large' }
  return { status: 400, message: 'Request is malformed' }
}

/**
 * Answers a request Node's HTTP parser refused (a lowercase method, a control byte in a header)
 * before Fastify could route it: written to the socket as Node would, but with the `{ error }`
 * body of every other error and `headers()` (the service's security headers), then closed.
 */
export function malformedRequestAnswer(logger: Logger, headers: () => Readonly<Record<string, string>>) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const { status, message } = answerFor(error)
    logger.info({ statusCode: status, code: error.code }, 'malformed request refused')
    // As Node's own handler: never into the middle of a response already being written.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify({ error: message })
      const lines = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        ...Object.entries({
          ...headers(),
          'cache-control': 'no-store',
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          connection: 'close'
        }).map(([name, value]) => `${name}: ${value}`)
      ]
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`)
    }
    socket.destroy(error)
  }
}
