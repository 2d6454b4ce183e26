import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { bundledImports } from '../helpers/bundle-imports.js'
import { databaseUrlInSchema } from '../helpers/databases.js'
import { GOOD_PASSWORD } from '../helpers/hub-app.js'
import { redisUrlUnderTest } from '../helpers/redis.js'
import { type ServerProcess, freePort, startBuilt } from '../helpers/server-process.js'
import { STRIPE_TEST_SECRET_KEY, STRIPE_TEST_WEBHOOK_SECRET } from '../helpers/stripe-stand-in.js'
import { signUpWithTwoStep } from '../helpers/two-step-over-http.js'

const HUB = 'dist/server/hub.js'
const RECORDER = pathToFileURL(path.resolve(import.meta.dirname, '../helpers/record-imports.mjs')).href

/** The libraries of features a configuration may leave out, or that a hub uses seldom (issue 32). */
const OPTIONAL_LIBRARIES = ['pg', 'ioredis', 'stripe', 'nodemailer', 'qrcode', '@simplewebauthn/server', 'csv-stringify', 'mailparser', 'oidc-provider']

/**
 * The hub as `npm run start:hub` runs it (the server bundle) loads only what its configuration
 * uses, and a seldom-used feature's library with the feature's first use (docs/performance.md,
 * "Issue 32: footprint"): each library is a few megabytes of memory and tens of milliseconds of
 * start-up.
 */
describe('what the hub process loads', { timeout: 60_000 }, () => {
  const running: ServerProcess[] = []
  const directories: string[] = []
  afterEach(() => {
    for (const server of running.splice(0)) server.child.kill('SIGKILL')
  })
  afterAll(() => {
    for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true })
  })

  /**
   * The built hub on a fresh DATA_DIR; `imported()` lists the packages it has imported so far:
   * those node resolved or required (the native addons) and those inside the bundle's files it
   * has loaded (the service's own, and the lazily loaded libraries' lazy/ files).
   */
  const startHub = async (env: Record<string, string> = {}) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-footprint-'))
    directories.push(dataDir)
    const record = path.join(dataDir, 'imports.txt')
    const port = String(await freePort())
    const server = await startBuilt(
      HUB,
      {
        DATA_DIR: dataDir,
        PORT: port,
        HUB_PORT: port,
        HUB_PUBLIC_URL: `http://127.0.0.1:${port}`,
        NODE_OPTIONS: `--import=${RECORDER}`,
        RECORD_IMPORTS_TO: record,
        ...env
      },
      '/api/health'
    )
    running.push(server)
    const imported = () => {
      const lines = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean)
      const files = lines.filter((line) => line.startsWith('file:'))
      return new Set([...lines.filter((line) => !line.startsWith('file:')), ...bundledImports(files)])
    }
    return { server, imported, dataDir }
  }

  it('on the embedded defaults, loads none of the optional libraries, and each with its first use', async () => {
    const { server, imported } = await startHub()
    // The recorder works: the libraries every hub needs are there.
    expect([...imported()]).toEqual(expect.arrayContaining(['fastify', 'kysely', 'better-sqlite3']))
    expect(OPTIONAL_LIBRARIES.filter((library) => imported().has(library))).toEqual([])

    // A sign-up sends a verification mail (to the outbox): nodemailer comes with it.
    const signUp = { email: 'first@example.com', password: GOOD_PASSWORD }
    expect((await fetch(`${server.url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signUp) })).status).toBe(200)
    await expect.poll(() => imported().has('nodemailer'), { timeout: 10_000 }).toBe(true)
    // A passkey sign-in's options: the WebAuthn library comes with them.
    const csrfCookie = /service-csrf-token=([^;]+)/.exec((await fetch(`${server.url}/api/health`)).headers.getSetCookie().join('\n'))?.[1] ?? ''
    const options = await fetch(`${server.url}/api/auth/passkey/options`, {
      method: 'POST',
      headers: { cookie: `service-csrf-token=${csrfCookie}`, 'x-csrf-token': csrfCookie }
    })
    expect(options.status).toBe(200)
    expect(imported().has('@simplewebauthn/server')).toBe(true)
    // The OpenID Connect provider with the first request to it: discovery.
    expect((await fetch(`${server.url}/.well-known/openid-configuration`)).status).toBe(200)
    expect(OPTIONAL_LIBRARIES.filter((library) => imported().has(library))).toEqual(['nodemailer', '@simplewebauthn/server', 'oidc-provider'])
  })

  // The bundle holds these two in lazy/ files of their own that start-up never reaches: this is
  // where such a file that fails to load, or an export lost to the bundler, would show
  // (docs/performance.md, "Issue 32: start-up from a code cache").
  it('loads the QR code library with a two-step set-up, and csv-stringify with a CSV export', async () => {
    const { server, imported, dataDir } = await startHub()
    const { hub } = await signUpWithTwoStep(server.url, path.join(dataDir, 'outbox'))
    expect(imported().has('qrcode')).toBe(true)
    expect(imported().has('csv-stringify')).toBe(false)
    const csv = await hub.call('POST', '/api/export', { format: 'csv' })
    expect(csv.status).toBe(200)
    expect(await csv.text()).toContain('drill@example.org')
    expect(imported().has('csv-stringify')).toBe(true)
  })

  const databaseUrl = process.env.TEST_DATABASE_URL
  const redisUrl = redisUrlUnderTest()
  it.skipIf(!databaseUrl || !redisUrl)('loads node-postgres, ioredis and Stripe when DATABASE_URL, REDIS_URL and STRIPE_SECRET_KEY ask for them', async () => {
    const schema = `hearth_footprint_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    try {
      await admin.query(`create schema ${schema}`)
      const { imported } = await startHub({
        DATABASE_URL: databaseUrlInSchema(databaseUrl!, schema).toString(),
        REDIS_URL: redisUrl!,
        STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
        // Never called: the client is only made.
        STRIPE_API_URL: 'http://127.0.0.1:9'
      })
      expect(OPTIONAL_LIBRARIES.filter((library) => imported().has(library))).toEqual(['pg', 'ioredis', 'stripe'])
    } finally {
      for (const server of running.splice(0)) {
        server.child.kill('SIGTERM')
        await server.exited
      }
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
    }
  })
})
