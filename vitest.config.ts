import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Migrates once per run; every test database starts from the result.
    globalSetup: ['test/helpers/database-templates.ts'],
    // In-process password hashing at test cost; the built code keeps production's (see the file).
    setupFiles: ['test/helpers/test-password-hashing.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report lets CI print one plain closing line of counts.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
  }
})
