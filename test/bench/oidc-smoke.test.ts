import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { glewlwydMissing } from '../../bench/glewlwyd.js'
import { OIDC_SCENARIOS } from '../../bench/oidc-load.js'

const project = path.resolve(import.meta.dirname, '../..')

/**
 * A short run of the OpenID Connect comparison from the build output (`pretest` builds it): every
 * scenario goes through against the hub, and against Glewlwyd where it is installed. A failed
 * request would exit 1. The hub is the server bundle users run (dist/server/hub.js), so this is
 * also the full flow (discovery, authorize with a signed-in browser, token, refresh, userinfo)
 * through oidc-provider's lazy/ file, which start-up never loads.
 */
describe('npm run bench -- --oidc-only, a smoke run', { timeout: 120_000 }, () => {
  it('runs each scenario on each provider and prints the comparison', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['dist/bench/run.js', '--oidc-only', '--oidc-rounds', '1', '--oidc-seconds', '0.5'], {
      cwd: project,
      timeout: 110_000
    })
    const missing = glewlwydMissing()
    for (const scenario of OIDC_SCENARIOS) {
      const row = stdout.split('\n').find((line) => line.startsWith(`| ${scenario.name}`))
      expect(row, stdout).toBeDefined()
      expect(stderr).toContain(`measuring ${scenario.name} on Hearth`)
      if (missing === undefined) expect(stderr).toContain(`measuring ${scenario.name} on Glewlwyd`)
    }
    if (missing !== undefined) expect(stdout).toContain(`Glewlwyd was not run (${missing})`)
    // The memory target is the hub's peak under these scenarios.
    expect(stdout).toMatch(/^\| npm run start:hub \| the OpenID Connect scenarios \| \d+\.\d \|/m)
  })
})
