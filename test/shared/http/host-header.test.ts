import { describe, expect, it } from 'vitest'
import { canonicalHost } from '../../../src/shared/http/host-header.js'

describe('canonicalHost: one spelling per Host, nothing else taken for a host', () => {
  it.each([
    ['localhost:3000', 'localhost:3000'],
    ['LocalHost:3000', 'localhost:3000'],
    ['localhost', 'localhost'],
    // A Host without a port names HTTP's default, so `:80` and no port are one host.
    ['localhost:80', 'localhost'],
    ['127.0.0.1:3000', '127.0.0.1:3000'],
    ['[::1]:3000', '[::1]:3000'],
    ['[0:0:0:0:0:0:0:1]:3000', '[::1]:3000'],
    ['[FD00::5]', '[fd00::5]'],
    ['tasks_1.internal:8080', 'tasks_1.internal:8080']
  ])('%s is %s', (value, canonical) => {
    expect(canonicalHost(value)).toBe(canonical)
  })

  it.each([
    '',
    'http://localhost:3000',
    'localhost:3000/',
    'localhost/evil.example',
    'evil.example/@localhost:3000',
    'user@localhost:3000',
    'localhost:3000?x',
    'localhost:3000#x',
    'localhost\\evil.example',
    'localhost :3000',
    'local host',
    '*.example.org',
    'localhost:65536',
    'localhost:port',
    '[::1',
    ':3000'
  ])('%j is not a host', (value) => {
    expect(canonicalHost(value)).toBeUndefined()
  })
})
