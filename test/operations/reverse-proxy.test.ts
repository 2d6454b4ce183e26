import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Response } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '../../src/hub/kernel/rate-limit/sign-in-throttle.js'
import { chromiumUnderTest, keepScreenshots, launchChromium } from '../helpers/browser.js'
import { GOOD_PASSWORD } from '../helpers/hub-app.js'
import { type ProxyName, type RunningProxy, type SelfSignedCertificate, proxiesUnderTest, requestFrom, selfSignedCertificate, startProxy } from '../helpers/reverse-proxies.js'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'

const DOC = new URL('../../docs/operations.md', import.meta.url)
const SECTION = '## Behind a reverse proxy, with TLS'

/** The first fenced block in `language` of the section, as the page shows it. */
function recipe(language: 'sh' | 'nginx' | 'caddyfile'): string {
  const text = fs.readFileSync(DOC, 'utf8')
  const start = text.indexOf(`\n${SECTION}\n`)
  if (start < 0) throw new Error(`docs/operations.md has no section "${SECTION}"`)
  const end = text.indexOf('\n## ', start + 1)
  const block = text.slice(start, end < 0 ? undefined : end).match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'))?.[1]
  if (block === undefined) throw new Error(`"${SECTION}" has no ${language} block`)
  return block
}

/** `text` with every `from` replaced; each must be there, so a recipe that changed fails here rather than being tested in part. */
function substituted(text: string, replacements: readonly (readonly [string, string])[]): string {
  return replacements.reduce((result, [from, to]) => {
    if (!result.includes(from)) throw new Error(`the recipe no longer says "${from}":\n${text}`)
    return result.replaceAll(from, to)
  }, text)
}

interface Ports {
  hub: number
  tasks: number
  /** Where the proxy serves each public name. */
  hubPublic: number
  tasksPublic: number
  /** The nginx recipe's port 80. */
  http: number
}

/** The recipe's environment, `NAME=value` per line before `npm start`, with the public names on this machine's ports. */
function recipeEnvironment(ports: Ports): Record<string, string> {
  const lines = recipe('sh').trim().split('\n')
  expect(lines.at(-1)).toBe('npm start')
  const entries = lines.slice(0, -1).map((line) => {
    const [, name = '', value = ''] = line.match(/^([A-Z_]+)=(\S+) \\$/) ?? []
    return [name, substituted(value, publicNames(ports).filter(([from]) => value.includes(from)))] as const
  })
  return Object.fromEntries(entries)
}

/** hub.example.org and tasks.example.org are `localhost` here, each on a port of its own. */
const publicNames = (ports: Ports) =>
  [
    ['https://hub.example.org', `https://localhost:${ports.hubPublic}`],
    ['https://tasks.example.org', `https://localhost:${ports.tasksPublic}`]
  ] as const

/** The upstream addresses of the recipes, at the services' free ports. */
const upstreams = (ports: Ports) =>
  [
    ['127.0.0.1:3001', `127.0.0.1:${ports.hub}`],
    ['127.0.0.1:3000', `127.0.0.1:${ports.tasks}`]
  ] as const

/**
 * nginx's own main file around the recipe (which goes inside `http`, as conf.d files do): its pid,
 * log and temporary files in `dir`. Each server block listens on its name's port on loopback.
 */
function nginxConfig(dir: string, ports: Ports, certificate: SelfSignedCertificate): string {
  const servers = recipe('nginx')
    .split(/\n(?=server \{)/)
    .map((server) => {
      const listen: [string, string] = server.includes('server_name hub.example.org;')
        ? ['listen 443 ssl;', `listen 127.0.0.1:${ports.hubPublic} ssl;`]
        : server.includes('server_name tasks.example.org;')
          ? ['listen 443 ssl;', `listen 127.0.0.1:${ports.tasksPublic} ssl;`]
          : ['listen 80;', `listen 127.0.0.1:${ports.http};`]
      return substituted(server, [listen])
    })
    .join('\n')
  const recipeHere = substituted(servers, [
    ['server_name hub.example.org tasks.example.org;', 'server_name localhost;'],
    ['hub.example.org', 'localhost'],
    ['tasks.example.org', 'localhost'],
    ['/etc/ssl/hearth/fullchain.pem', certificate.certFile],
    ['/etc/ssl/hearth/privkey.pem', certificate.keyFile],
    ...upstreams(ports)
  ])
  const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${path.join(dir, kind)};`).join('\n')
  return `pid ${path.join(dir, 'nginx.pid')};\nerror_log stderr;\nevents {}\nhttp {\n  access_log off;\n${temporary}\n${recipeHere}}\n`
}

/**
 * The recipe's Caddyfile with the test's global options first: no admin endpoint, storage in `dir`,
 * loopback only, no port 80 redirects; and the certificate it would otherwise fetch.
 */
function caddyConfig(dir: string, ports: Ports, certificate: SelfSignedCertificate): string {
  const tls = `\n\ttls ${certificate.certFile} ${certificate.keyFile}`
  const sites = substituted(recipe('caddyfile'), [
    ['hub.example.org {', `https://localhost:${ports.hubPublic} {${tls}`],
    ['tasks.example.org {', `https://localhost:${ports.tasksPublic} {${tls}`],
    ...upstreams(ports)
  ])
  const options = ['admin off', 'auto_https disable_redirects', 'skip_install_trust', 'default_bind 127.0.0.1', `http_port ${ports.http}`, `storage file_system ${path.join(dir, 'storage')}`]
  return `{\n${options.map((option) => `\t${option}\n`).join('')}}\n\n${sites}`
}

/** Starts the proxy on the recipe; resolves once it serves both names. */
async function startRecipe(name: ProxyName, dir: string, ports: Ports, certificate: SelfSignedCertificate): Promise<RunningProxy> {
  fs.mkdirSync(dir, { recursive: true })
  const served = [ports.hubPublic, ports.tasksPublic]
  if (name === 'nginx') {
    const file = path.join(dir, 'nginx.conf')
    fs.writeFileSync(file, nginxConfig(dir, ports, certificate))
    return startProxy('nginx', ['-p', dir, '-c', file, '-e', 'stderr', '-g', 'daemon off;'], [...served, ports.http])
  }
  const file = path.join(dir, 'Caddyfile')
  fs.writeFileSync(file, caddyConfig(dir, ports, certificate))
  return startProxy('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], served, { HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir })
}

const withChromium = chromiumUnderTest()
const proxies = withChromium ? proxiesUnderTest() : []
/** Two client addresses per proxy, none the proxy's own 127.0.0.1: the hub's limits live as long as its process. */
const CLIENTS: Record<ProxyName, readonly [string, string]> = { nginx: ['127.0.0.5', '127.0.0.6'], caddy: ['127.0.0.7', '127.0.0.8'] }
const SIGNUPS_PER_ADDRESS = DEFAULT_RATE_LIMITS.signupsPerIp.limit

/**
 * Issue 31: the recipes of docs/operations.md, each run by the real proxy with a self-signed
 * certificate in front of one `npm start` process (the built `dist/server/main.js`), the proxies one
 * after the other on the same public ports.
 */
describe.skipIf(proxies.length === 0)("npm start's services behind a reverse proxy with TLS", { timeout: 120_000 }, () => {
  let root: string
  let ports: Ports
  let certificate: SelfSignedCertificate
  let services: ServerProcess
  let browser: Browser
  const hubUrl = () => `https://localhost:${ports.hubPublic}`
  const tasksUrl = () => `https://localhost:${ports.tasksPublic}`

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-reverse-proxy-'))
    ports = { hub: await freePort(), tasks: await freePort(), hubPublic: await freePort(), tasksPublic: await freePort(), http: await freePort() }
    certificate = selfSignedCertificate(root, ['localhost'])
    const environment = recipeEnvironment(ports)
    expect(Object.keys(environment)).toEqual(['HUB_PUBLIC_URL', 'TASKS_PUBLIC_URL', 'HUB_TRUSTED_PROXIES'])
    services = await startBuilt('dist/server/main.js', {
      ...environment,
      DATA_DIR: path.join(root, 'data'),
      PORT: String(ports.tasks),
      HUB_PORT: String(ports.hub),
      NODE_EXTRA_CA_CERTS: certificate.certFile
    })
    browser = await launchChromium([`--ignore-certificate-errors-spki-list=${certificate.spkiSha256}`])
  })

  afterAll(async () => {
    await browser?.close()
    services?.child.kill('SIGTERM')
    await services?.exited
    fs.rmSync(root, { recursive: true, force: true })
  })

  describe.each(proxies)('the %s recipe', (name) => {
    let proxy: RunningProxy
    beforeAll(async () => {
      proxy = await startRecipe(name, path.join(root, name), ports, certificate)
    })
    afterAll(() => proxy?.stop())
    beforeEach(({ task, onTestFailed }) => {
      onTestFailed(() => {
        console.error(`${name} said:\n${proxy.output()}\nthe services said:\n${services.output().slice(-5000)}`)
        return keepScreenshots(browser.contexts().flatMap((open) => open.pages()), task.name)
      })
    })

    it("signs up at the hub, opens the task manager's pages through the hub's sign-in, signs out of both: Secure cookies, HSTS, no loop", async () => {
      const context = await browser.newContext({ locale: 'en-US' })
      const page = await context.newPage()
      const answers: Promise<{ url: string; redirectsBefore: number; uncached: boolean; hsts: string | undefined; cookies: string[] }>[] = []
      const redirectsBefore = (response: Response) => {
        let count = 0
        for (let request = response.request().redirectedFrom(); request; request = request.redirectedFrom()) count++
        return count
      }
      page.on('response', (response: Response) =>
        answers.push(
          response.headersArray().then((headers) => ({
            url: response.url(),
            redirectsBefore: redirectsBefore(response),
            uncached: ['document', 'fetch'].includes(response.request().resourceType()),
            hsts: headers.find((header) => header.name.toLowerCase() === 'strict-transport-security')?.value,
            cookies: headers.filter((header) => header.name.toLowerCase() === 'set-cookie').map((header) => header.value)
          }))
        )
      )

      await page.goto(`${hubUrl()}/signup`)
      const email = `behind-${name}-${process.pid}@example.com`
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(`${hubUrl()}/dashboard`)
      await page.getByRole('link', { name: 'Open Tasks' }).click()
      await page.waitForURL(`${tasksUrl()}/`)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your tasks')
      // A form of the task manager's, through the proxy with its CSRF cookie.
      await page.getByLabel('Title').fill('Renew the certificate')
      await page.getByRole('button', { name: 'Add task' }).click()
      await page.getByRole('main').getByText('Task added.').waitFor()

      // Signing out at the hub ends the task manager's session too: the hub's back-channel logout
      // goes to TASKS_PUBLIC_URL, through the proxy.
      await page.goto(`${hubUrl()}/dashboard`)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${hubUrl()}/login**`)
      await expect
        .poll(async () => {
          await page.goto(`${tasksUrl()}/`)
          return new URL(page.url()).origin + new URL(page.url()).pathname
        }, { timeout: 15_000, interval: 500 })
        .toBe(`${hubUrl()}/login`)
      // Signed in again there, then out from the task manager: through the hub's confirmation and back.
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(GOOD_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL(`${tasksUrl()}/`)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${hubUrl()}/oidc/session/end**`)
      await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click()
      await page.waitForURL(`${tasksUrl()}/auth/signed-out`)

      const seen = await Promise.all(answers)
      const ours = seen.filter(({ url }) => url.startsWith(hubUrl()) || url.startsWith(tasksUrl()))
      expect(ours.length).toBe(seen.length)
      // The longest chain is the sign-in's (task manager, hub's provider and its interactions, task
      // manager: 8 redirects); a loop would run on to Chromium's 20 and fail the navigation.
      expect(Math.max(...ours.map((answer) => answer.redirectsBefore))).toBeLessThanOrEqual(10)
      // HSTS on every page, redirect and API answer. Chromium keeps no Strict-Transport-Security in
      // its cache and reports a cached answer (an asset, the icon) without it, so those are asked here.
      const withoutHsts = ours.filter(({ uncached, hsts }) => uncached && !/^max-age=31536000\b/.test(hsts ?? ''))
      expect(withoutHsts.map(({ url }) => url)).toEqual([])
      const cacheable = ours.filter(({ uncached }) => !uncached).map(({ url }) => url)
      expect(cacheable.length).toBeGreaterThan(0)
      for (const url of new Set(cacheable)) {
        expect((await requestFrom('127.0.0.1', url, certificate.pem)).headers['strict-transport-security'], url).toMatch(/^max-age=31536000\b/)
      }
      const cookies = ours.flatMap(({ url, cookies }) => cookies.map((cookie) => ({ url, cookie })))
      expect(cookies.map(({ cookie }) => cookie.split('=')[0])).toEqual(expect.arrayContaining(['service-auth-token', 'tasks-session', 'tasks-csrf']))
      for (const { url, cookie } of cookies) expect(cookie, url).toMatch(/;\s*secure(;|$)/i)
      expect((await context.cookies()).filter((cookie) => !cookie.secure)).toEqual([])
      await context.close()
    })

    it.runIf(name === 'nginx')('sends plain http to https', async () => {
      const answer = await fetch(`http://localhost:${ports.http}/signup?next=%2F`, { redirect: 'manual' })
      expect(answer.status).toBe(301)
      expect(answer.headers.get('location')).toBe('https://localhost/signup?next=%2F')
    })

    it("counts the per-address limits and the audit trail by the client's address, not the proxy's", async () => {
      const [client, other] = CLIENTS[name]
      const email = `limits-${name}-${process.pid}@example.com`
      const from = (address: string, url: string, options?: Parameters<typeof requestFrom>[3]) => requestFrom(address, `${hubUrl()}${url}`, certificate.pem, options)

      expect((await from(client, '/api/auth/signup', { method: 'POST', body: { email, password: GOOD_PASSWORD } })).status).toBe(200)
      const login = await from(client, '/api/auth/login', { method: 'POST', body: { email, password: GOOD_PASSWORD } })
      expect(login.status).toBe(200)
      const cookie = [login.headers['set-cookie'] ?? []].flat().map((line) => line.split(';')[0]).join('; ')
      const activity = await from(client, '/api/account/activity', { headers: { cookie } })
      expect(activity.status).toBe(200)
      const events = (JSON.parse(activity.body) as { events: { type: string; ip: string | null }[] }).events
      expect(events.map(({ type }) => type)).toEqual(expect.arrayContaining(['signup', 'signin']))
      for (const event of events) expect(event.ip, event.type).toBe(client)

      // The address's sign-ups, the account above included, up to the limit; each refused for its password, counted all the same.
      const weak = (address: string, index: number, headers?: Record<string, string>) =>
        from(address, '/api/auth/signup', { method: 'POST', body: { email: `flood-${name}-${index}@example.com`, password: 'short' }, headers })
      for (let index = 1; index < SIGNUPS_PER_ADDRESS; index++) expect((await weak(client, index)).status, `sign-up ${index + 1}`).toBe(400)
      expect((await weak(client, SIGNUPS_PER_ADDRESS)).status).toBe(429)
      // Its own X-Forwarded-For does not make it someone else; another address is not held back.
      expect((await weak(client, SIGNUPS_PER_ADDRESS, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429)
      expect((await weak(other, SIGNUPS_PER_ADDRESS)).status).toBe(400)
    })
  })
})
