import { createHash, randomInt } from 'node:crypto'

export const RECOVERY_CODE_COUNT = 10
/** Lower-case letters and digits without the look-alikes 0/o and 1/l: 32 symbols, 5 bits each. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'
/** 16 symbols, 80 bits: too many to guess, and to recover from their SHA-256 should the table leak. */
const SYMBOLS = 16
const GROUP = 4

/** Fresh codes as shown to the person once: `abcd-efgh-ijkm-npqr`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const symbols = Array.from({ length: SYMBOLS }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
    return symbols.match(new RegExp(`.{${GROUP}}`, 'g'))?.join('-') ?? symbols
  })
}

/** What is stored and looked up: SHA-256 of the code as typed, without case, spaces or dashes. */
export function recoveryCodeHash(typed: string): string {
  return createHash('sha256').update(typed.toLowerCase().replace(/[\s-]/g, '')).digest('hex')
}
