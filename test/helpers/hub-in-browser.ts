import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import type { App } from '../../src/shared/http/server.js'
import { keepScreenshots, launchChromium, recordCspViolations } from './browser.js'
import type { DatabaseUnderTest, TestDatabase } from './databases.js'
import { type TestHubOptions, buildTestHubApp } from './hub-app.js'
import { freePort } from './server-process.js'

interface HubInBrowserOptions {
  /** `localhost` where a passkey's RP id needs a host name; the hub listens on 127.0.0.1 either way. */
  host?: 'localhost' | '127.0.0.1'
  /** The hub's options besides its public URL; a function is read when the suite starts (after earlier beforeAll hooks). */
  hub?: TestHubOptions | (() => TestHubOptions)
}

/**
 * A hub in this process listening on a free loopback port, its public URL `origin`, and headless
 * Chromium to drive it, for the suite around the call.
 */
export function useHubInBrowser(database: DatabaseUnderTest, { host = '127.0.0.1', hub = {} }: HubInBrowserOptions = {}) {
  const suite = {} as { handle: TestDatabase; app: App; origin: string; browser: Browser }
  beforeAll(async () => {
    const port = await freePort()
    suite.origin = `http://${host}:${port}`
    suite.handle = await database.open()
    const options = typeof hub === 'function' ? hub() : hub
    suite.app = await buildTestHubApp(suite.handle, { ...options, config: { publicUrl: suite.origin, ...options.config } })
    await suite.app.listen({ port, host: '127.0.0.1' })
    suite.browser = await launchChromium()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.app?.close()
    await suite.handle?.destroy()
  })
  return suite
}

/**
 * Opens tabs, each in a browser of its own (its own cookies and sessionStorage), in which any CSP
 * violation fails the test. They are closed after each test; a failed test keeps a screenshot of
 * every tab still open.
 */
export function useCheckedTabs(suite: { browser: Browser; origin: string }): () => Promise<Page> {
  const contexts: BrowserContext[] = []
  const cspViolations: string[] = []
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots(suite.browser.contexts().flatMap((open) => open.pages()), task.name))
  })
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close()
    expect(cspViolations).toEqual([])
  })
  return async () => {
    const context = await suite.browser.newContext({ baseURL: suite.origin, locale: 'en-US' })
    contexts.push(context)
    const tab = await context.newPage()
    await recordCspViolations(tab, cspViolations)
    return tab
  }
}
