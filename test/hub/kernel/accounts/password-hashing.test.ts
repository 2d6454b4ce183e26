import { execFile } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const BUILT = pathToFileURL(path.resolve(import.meta.dirname, '../../../../dist/src/hub/kernel/accounts/password-hashing.js')).href

/**
 * In-process tests hash cheaply (test/helpers/test-password-hashing.ts); the built code, which
 * production runs, is read here in a process of its own, away from that set-up.
 */
describe('password hashing as built', () => {
  it("is argon2id at OWASP's minimum: 19 MiB of memory, two passes, one lane", async () => {
    const script = `const { hashPassword, verifyPassword } = await import(${JSON.stringify(BUILT)})
      const hash = await hashPassword('a password')
      console.log(JSON.stringify({ hash, verified: await verifyPassword(hash, 'a password'), wrong: await verifyPassword(hash, 'another') }))`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
    const { hash, verified, wrong } = JSON.parse(stdout) as { hash: string; verified: boolean; wrong: boolean }
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect({ verified, wrong }).toEqual({ verified: true, wrong: false })
  })
})
