import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret, secretMatches } from '../../../../src/hub/features/oidc/clients.js'
import { registeredUrlsOnly } from '../../../../src/hub/features/oidc/provider.js'

describe('client secrets', () => {
  const stored = hashSecret('the-secret-the-cli-printed')

  it.each([
    ['the secret itself', 'the-secret-the-cli-printed', true],
    ['another secret', 'the-secret-the-cli-printeD', false],
    ['the stored hash, presented as the secret', stored, false],
    ['an empty secret', '', false],
    ['a much longer secret', 'x'.repeat(10_000), false]
  ])('%s: %s', (_label, presented, matches) => {
    expect(secretMatches(stored, presented)).toBe(matches)
  })

  it('keeps a SHA-256, never the secret', () => {
    expect(stored).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/)
    expect(stored).not.toContain('the-secret')
  })
})

describe('the provider’s outgoing requests', () => {
  let server: http.Server
  let registered: string
  beforeAll(async () => {
    server = http.createServer((_request, response) => response.writeHead(204).end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    registered = `http://127.0.0.1:${(server.address() as AddressInfo).port}/logout`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const fetchFor = () => registeredUrlsOnly({ backchannelLogoutUris: async () => new Set([registered]) })

  it('reach a registered back-channel logout URL, on a loopback address too', async () => {
    expect((await fetchFor()(registered, { method: 'POST' })).status).toBe(204)
  })

  it('refuse any other URL, before connecting', async () => {
    const other = registered.replace('/logout', '/admin')
    await expect(fetchFor()(other, { method: 'POST' })).rejects.toThrow(`Refusing a request to an unregistered URL: ${other}`)
    await expect(fetchFor()('http://169.254.169.254/latest/meta-data', {})).rejects.toThrow(/unregistered URL/)
  })
})
