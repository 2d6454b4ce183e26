import http from 'node:http'
import * as openid from 'openid-client'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGroups } from '../../../../src/hub/features/groups/service.js'
import { chromiumUnderTest, keyboardWalk, launchChromium, recordCspViolations, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { type DatabaseUnderTest, databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'
import { freePort } from '../../../helpers/server-process.js'

const withChromium = chromiumUnderTest()
// The refusal is the same on both databases (allowed-groups.test.ts); the browser runs it on SQLite.
const sqlite = databasesUnderTest()[0] as DatabaseUnderTest

/** Grafana as far as the test needs it: "Sign in with Hearth", and a callback that says what it heard. */
async function startGrafana(issuer: string, secret: string | null, port: number) {
  const origin = `http://127.0.0.1:${port}`
  let config: openid.Configuration | undefined
  const server = http.createServer((request, response) => {
    void (async () => {
      config ??= await relyingParty(issuer, 'grafana', secret)
      const url = new URL(request.url ?? '/', origin)
      if (url.pathname === '/sign-in') {
        const challenge = await openid.calculatePKCECodeChallenge(openid.randomPKCECodeVerifier())
        const authorize = openid.buildAuthorizationUrl(config, { redirect_uri: `${origin}/callback`, scope: 'openid groups', code_challenge: challenge, code_challenge_method: 'S256', state: 'grafana-state' })
        response.writeHead(303, { location: authorize.href }).end()
      } else if (url.pathname === '/callback') {
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Grafana</title><p>Grafana heard: ${url.searchParams.get('error') ?? 'a code'}</p></html>`)
      } else {
        response.writeHead(404).end()
      }
    })().catch((error: unknown) => response.writeHead(500).end(String(error)))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.skipIf(!withChromium)('the page of a person an application’s groups do not admit, in a browser', { timeout: 90_000 }, () => {
  const hub = useHubOnPort(sqlite)
  let browser: Browser
  let grafana: Awaited<ReturnType<typeof startGrafana>>
  const email = uniqueEmail('not-admitted')

  beforeAll(async () => {
    const port = await freePort()
    await createGroups(hub.handle.db, () => new Date()).create({ name: 'admins' }, { record: async () => {} })
    const secret = await registerClient(hub.handle, { id: 'grafana', name: 'Grafana', firstParty: true, redirectUris: [`http://127.0.0.1:${port}/callback`], allowedGroups: ['admins'] })
    grafana = await startGrafana(hub.issuer, secret, port)
    await new CookieBrowser(hub.issuer).signUpAndIn(email)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await grafana?.close()
  })

  const cases = [
    { locale: 'en-US', width: 360, title: 'You don’t have access to Grafana', back: 'Back to Grafana' },
    { locale: 'en-US', width: 1280, title: 'You don’t have access to Grafana', back: 'Back to Grafana' },
    { locale: 'es-ES', width: 360, title: 'No tienes acceso a Grafana', back: 'Volver a Grafana' },
    { locale: 'es-ES', width: 1280, title: 'No tienes acceso a Grafana', back: 'Volver a Grafana' }
  ]

  it.each(cases)('says so in $locale at $width px, accessible and CSP-clean, then takes the person back to the application with access_denied', async ({ locale, width, title, back }) => {
    const context = await browser.newContext({ locale, viewport: { width, height: 800 } })
    const page = await context.newPage()
    const cspViolations: string[] = []
    await recordCspViolations(page, cspViolations)
    // Signed in at the hub already (the sign-in page has its own browser tests).
    const login = await context.request.post(`${hub.issuer}/api/auth/login`, { data: { email, password: GOOD_PASSWORD } })
    expect(login.status()).toBe(200)
    await page.goto(`${grafana.origin}/sign-in`)
    await page.getByRole('heading', { name: title }).waitFor()
    expect(await seriousAccessibilityViolations(page), page.url()).toEqual([])
    expect(await keyboardWalk(page), page.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    await page.getByRole('button', { name: back }).click()
    await page.waitForURL(`${grafana.origin}/callback?**`)
    expect(await page.getByText('Grafana heard: access_denied').count()).toBe(1)
    expect(cspViolations).toEqual([])
    await context.close()
  })
})
