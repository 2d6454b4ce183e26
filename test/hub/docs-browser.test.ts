import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumUnderTest, launchChromium, recordCspViolations } from '../helpers/browser.js'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'

const withChromium = chromiumUnderTest()

/** Swagger UI at /docs under the hub's strict policy (no relaxation of its own), in a real browser. */
describe.skipIf(!withChromium)('the API documentation in a browser', { timeout: 60_000 }, () => {
  let hub: ServerProcess
  let browser: Browser
  let dataDir: string
  let baseUrl: string

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-docs-'))
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    hub = await startBuilt('dist/server/hub.js', { PORT: String(port), HUB_PORT: String(port), HUB_PUBLIC_URL: baseUrl, DATA_DIR: dataDir }, '/api/health')
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    hub?.child.kill('SIGTERM')
    await hub?.exited
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('renders the operations with nothing refused by the policy', async () => {
    const page = await browser.newPage()
    const violations: string[] = []
    await recordCspViolations(page, violations)
    const response = await page.goto(`${baseUrl}/docs`)
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    await page.locator('.opblock').first().waitFor()
    expect(await page.locator('.opblock-summary-path', { hasText: '/api/auth/refresh' }).count()).toBeGreaterThan(0)
    // A refusal here would also be reported to /api/csp-report on every visit to the docs.
    expect(violations).toEqual([])
  })
})
