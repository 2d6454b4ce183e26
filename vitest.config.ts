import os from 'node:os'
import { defineConfig } from 'vitest/config'

/** Test files that replace a module with `vi.mock`: the replacement must not meet a copy another file already loaded. */
export const MODULE_MOCKS = ['test/hub/kernel/accounts/accounts.test.ts', 'test/hub/kernel/accounts/dummy-hash.test.ts']
/** Migrates once per project; every test database starts from the result. */
const globalSetup = ['test/helpers/database-templates.ts']

export default defineConfig({
  test: {
    pool: 'forks',
    // vitest runs one file fewer than there are cores, so a single file at a time on CI's two. The
    // files spend much of their time waiting on PostgreSQL, Chromium and the processes they start.
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print one plain closing line of counts.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        // A worker keeps the modules it loaded from one file to the next: importing them afresh for
        // each file was a quarter of the suite's time (README, "Tests").
        test: { name: 'hearth', include: ['test/**/*.test.ts'], exclude: MODULE_MOCKS, isolate: false, globalSetup }
      },
      { extends: true, test: { name: 'module mocks', include: MODULE_MOCKS, globalSetup } }
    ]
  }
})
