import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, recordCspViolations } from '../helpers/browser.js'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'

/** Swagger UI at /docs under the hub's strict policy (no relaxation of its own), in a real browser. */
describe('the API documentation in a browser', { timeout: 60_000 }, () => {
  let hub: ServerProcess
  let browser: Browser
  let dataDir: string
  let baseUrl: string

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-docs-'))
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    hub = await startBuilt('dist/src/hub/main.js', { PORT: String(port), HUB_PORT: String(port), HUB_PUBLIC_URL: baseUrl, DATA_DIR: dataDir }, '/api/health')
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    hub?.child.kill('SIGTERM')
    await hub?.exited
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('renders the operations, with no script, frame or other resource refused', async () => {
    const page = await browser.newPage()
    const violations: string[] = []
    await recordCspViolations(page, violations)
    const response = await page.goto(`${baseUrl}/docs`)
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    await page.locator('.opblock').first().waitFor()
    expect(await page.locator('.opblock-summary-path', { hasText: '/api/auth/refresh' }).count()).toBeGreaterThan(0)
    // Swagger UI's script inserts one inline <style>, blocked here as under the policy
    // @fastify/swagger-ui writes itself (no 'unsafe-inline' there either); nothing else may be.
    expect(violations.filter((violation) => !/inline style|style-src-elem blocked inline/.test(violation))).toEqual([])
  })
})
