import { beforeAll } from 'vitest'

/**
 * Runs with each test file (vitest's setupFiles). The suite signs up and logs in thousands of
 * times, and at production cost (19 MiB, two passes: ~100 ms a hash on a busy CI core) argon2
 * was a good part of the test step. In-process hubs hash with argon2id still, at the least
 * memory and one pass; processes the tests start run the built code at production cost, and
 * test/hub/kernel/accounts/password-hashing.test.ts holds the production parameters to OWASP's.
 *
 * Set in a hook, once the test file has imported what it uses: an import here would load the
 * hashing module before a test file's own vi.mock of its dependencies could apply.
 */
beforeAll(async () => {
  const { ARGON2_OPTIONS } = await import('../../src/hub/kernel/accounts/password-hashing.js')
  Object.assign(ARGON2_OPTIONS, { memoryCost: 1024, timeCost: 1 })
})
