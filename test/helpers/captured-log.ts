import { Writable } from 'node:stream'
import type { LogLevel } from '../../src/shared/config.js'
import { createLogger } from '../../src/shared/logging.js'

/** A real logger whose JSON lines are kept for the test to read, raw and parsed. */
export function capturedLog(level: LogLevel = 'info') {
  let text = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString()
      done()
    }
  })
  return {
    logger: createLogger(level, stream),
    get text() {
      return text
    },
    get lines(): Record<string, unknown>[] {
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    }
  }
}
