import os from 'node:os'
import { type Algorithm, type Options, hash, verify } from '@node-rs/argon2'
import { hashingSlots } from './hashing-slots.js'

/** `Algorithm.Argon2id`, spelt out: the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID: Algorithm = 2

/** OWASP's argon2id minimum: 19 MiB of memory, two passes, one lane. */
export const ARGON2_OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

/**
 * Hashes run in libuv's thread pool, one CPU each; leaving one CPU to the event loop keeps
 * every other request answering while logins pour in. Unknown emails queue here too, so they
 * still cost what a wrong password costs.
 */
const inHashingSlot = hashingSlots(Math.max(1, os.availableParallelism() - 1))

export function hashPassword(password: string): Promise<string> {
  return inHashingSlot(() => hash(password, ARGON2_OPTIONS))
}

/**
 * Whether `password` is the account's. An account with no password (made with a passkey, docs/account.md)
 * matches none, at a wrong password's cost: a verify against the dummy hash, so the time of the
 * answer does not tell that it has none.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verifyAgainstDummy(password)
    return false
  }
  return inHashingSlot(() => verify(passwordHash, password))
}

let dummyHash: Promise<string> | undefined

/**
 * A hash of nothing anyone knows, computed once per process. The hub computes it while it
 * starts: made lazily, the first login for an unknown email would pay for a hash and a verify,
 * twice a wrong password's cost, and its time would tell that the email is not registered.
 */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not a password anyone can sign in with')
  return dummyHash
}

/** A login for an unknown email costs what a wrong password costs. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  await verifyPassword(await prepareDummyHash(), password)
}
