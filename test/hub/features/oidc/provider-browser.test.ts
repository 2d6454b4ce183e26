import http from 'node:http'
import * as openid from 'openid-client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { chromiumUnderTest, keepScreenshots, keyboardWalk, launchChromium, recordCspViolations, seriousAccessibilityViolations } from '../../../helpers/browser.js'
import { type DatabaseUnderTest, databasesUnderTest } from '../../../helpers/databases.js'
import { GOOD_PASSWORD, uniqueEmail } from '../../../helpers/hub-app.js'
import { CookieBrowser, registerClient, relyingParty, useHubOnPort } from '../../../helpers/oidc-relying-party.js'
import { freePort } from '../../../helpers/server-process.js'

const withChromium = chromiumUnderTest()
// The flow is the same on both databases (code-flow.test.ts); the browser runs it on SQLite.
const sqlite = databasesUnderTest()[0] as DatabaseUnderTest

/**
 * A small relying party as a web application would be: "Sign in with Hearth" starts the code flow
 * with PKCE, and its callback shows who signed in, from the ID token and userinfo (openid-client).
 */
async function startRelyingPartyPage(issuer: string, clientId: string, secret: string | null, port: number) {
  const origin = `http://127.0.0.1:${port}`
  let config: openid.Configuration | undefined
  const pending = new Map<string, string>()
  const server = http.createServer((request, response) => {
    void (async () => {
      config ??= await relyingParty(issuer, clientId, secret)
      const url = new URL(request.url ?? '/', origin)
      if (url.pathname === '/logo.svg') {
        // The application's logo, which the consent and account pages show (its address is allowed by their CSP only).
        response
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#2a6"/></svg>')
      } else if (url.pathname === '/') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Photo album</title><a href="/sign-in">Sign in with Hearth</a></html>')
      } else if (url.pathname === '/sign-in') {
        const verifier = openid.randomPKCECodeVerifier()
        const state = openid.randomState()
        pending.set(state, verifier)
        const challenge = await openid.calculatePKCECodeChallenge(verifier)
        const authorize = openid.buildAuthorizationUrl(config, { redirect_uri: `${origin}/callback`, scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256', state })
        response.writeHead(303, { location: authorize.href }).end()
      } else if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? ''
        const tokens = await openid.authorizationCodeGrant(config, url, { pkceCodeVerifier: pending.get(state), expectedState: state })
        const userinfo = await openid.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub ?? '')
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Photo album</title><p>Signed in as ${userinfo.email ?? ''}</p></html>`)
      } else {
        response.writeHead(404).end()
      }
    })().catch((error: unknown) => response.writeHead(500).end(String(error)))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe.skipIf(!withChromium)('signing in to an application through the hub’s pages, in a browser', { timeout: 60_000 }, () => {
  const hub = useHubOnPort(sqlite)
  let browser: Browser
  let page: Page
  let relyingPartyPage: Awaited<ReturnType<typeof startRelyingPartyPage>>
  const cspViolations: string[] = []
  const email = uniqueEmail('oidc-browser')

  beforeAll(async () => {
    const port = await freePort()
    const secret = await registerClient(hub.handle, {
      id: 'photo-album',
      name: 'Photo album',
      redirectUris: [`http://127.0.0.1:${port}/callback`],
      logoUrl: `http://127.0.0.1:${port}/logo.svg`
    })
    relyingPartyPage = await startRelyingPartyPage(hub.issuer, 'photo-album', secret, port)
    await new CookieBrowser(hub.issuer).signUpAndIn(email)
    browser = await launchChromium()
    page = await (await browser.newContext({ locale: 'en-US' })).newPage()
    await recordCspViolations(page, cspViolations)
  })
  afterAll(async () => {
    await browser?.close()
    await relyingPartyPage?.close()
  })
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => keepScreenshots([page], task.name))
  })
  afterEach(() => {
    expect(cspViolations).toEqual([])
  })

  /** The application's logo is shown, loaded (the page's CSP allowed it), and named. */
  const expectLogo = async () => {
    const logo = page.getByRole('img', { name: 'Logo of Photo album' })
    await logo.waitFor()
    expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true)
  }

  const expectAccessible = async () => {
    expect(await seriousAccessibilityViolations(page), page.url()).toEqual([])
    expect(await keyboardWalk(page), page.url()).toEqual({ unreached: [], withoutFocusOutline: [] })
  }

  it('signs in at the hub, consents, and arrives signed in at the application', async () => {
    await page.goto(relyingPartyPage.origin)
    await page.getByRole('link', { name: 'Sign in with Hearth' }).click()
    await page.waitForURL(`${hub.issuer}/login?next=**`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(GOOD_PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()

    await page.getByRole('heading', { name: 'Allow Photo album to sign you in?' }).waitFor()
    expect(await page.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining(['Your email address, and whether it is verified']))
    await expectLogo()
    await expectAccessible()
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(`${relyingPartyPage.origin}/callback?**`)
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(1)
  })

  it('signs in again without a question, then disconnects the application from the account page', async () => {
    await page.goto(`${relyingPartyPage.origin}/sign-in`)
    await page.waitForURL(`${relyingPartyPage.origin}/callback?**`)
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(1)

    await page.goto(`${hub.issuer}/account`)
    const section = page.getByRole('region', { name: 'Connected applications' })
    await section.getByText('Photo album').waitFor()
    await expectLogo()
    await expectAccessible()
    await section.getByRole('button', { name: 'Disconnect: Photo album' }).click()
    await section.getByText('No application outside Hearth signs you in.').waitFor()
  })

  it('asks again once disconnected', async () => {
    await page.goto(`${relyingPartyPage.origin}/sign-in`)
    await page.getByRole('heading', { name: 'Allow Photo album to sign you in?' }).waitFor()
  })
})
