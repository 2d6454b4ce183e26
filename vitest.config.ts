import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // vitest runs one file fewer than there are cores, so a single file at a time on CI's two. The
    // files spend much of their time waiting on PostgreSQL, Chromium and the processes they start.
    maxWorkers: os.availableParallelism(),
    // Migrates once per run; every test database starts from the result.
    globalSetup: ['test/helpers/database-templates.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print one plain closing line of counts.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
  }
})
