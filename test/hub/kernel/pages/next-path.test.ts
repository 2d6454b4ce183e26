import { describe, expect, it } from 'vitest'
import { loginPathReturningTo, safeNextPath } from '../../../../src/hub/kernel/language/next-path.js'

describe('safeNextPath', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/privacy?tab=consent', '/privacy?tab=consent'],
    ['/export#top', '/export#top'],
    ['/a/../dashboard', '/dashboard'],
    ['/%2F%2Fevil.com', '/%2F%2Fevil.com']
  ])('keeps the same-site path %j', (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected)
  })

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/dashboard'],
    ['backslash after slash', '/\\evil.com'],
    ['double backslash', '\\\\evil.com'],
    ['absolute https', 'https://evil.com'],
    ['absolute http', 'http://evil.com/dashboard'],
    ['scheme-relative javascript', 'javascript:alert(1)'],
    ['data URL', 'data:text/html,hi'],
    ['relative without slash', 'dashboard'],
    ['tab inside //', '/\t/evil.com'],
    ['newline inside //', '/\n/evil.com'],
    ['NUL', '/dash\u0000board'],
    ['triple slash', '///evil.com'],
    ['dot segment that normalises to //', '/..//evil.com'],
    ['empty', ''],
    ['very long', `/${'a'.repeat(600)}`],
    ['not a string', ['/dashboard']],
    ['undefined', undefined]
  ])('refuses %s', (_name, raw) => {
    expect(safeNextPath(raw)).toBeUndefined()
  })

  it.each([
    ['encoded //', '%2F%2Fevil.com'],
    ['encoded /\\', '%2F%5Cevil.com'],
    ['encoded scheme', 'https%3A%2F%2Fevil.com']
  ])('refuses the %s a query string decodes to', (_name, encoded) => {
    // The query parser decodes once; what reaches the rule is the decoded text.
    expect(safeNextPath(new URLSearchParams(`next=${encoded}`).get('next'))).toBeUndefined()
  })
})

describe('loginPathReturningTo', () => {
  it.each([
    ['/dashboard', '/login?next=%2Fdashboard'],
    ['/privacy?a=1&b=2', '/login?next=%2Fprivacy%3Fa%3D1%26b%3D2']
  ])('encodes %j as one parameter', (path, expected) => {
    expect(loginPathReturningTo(path)).toBe(expected)
    expect(safeNextPath(new URL(expected, 'http://x').searchParams.get('next'))).toBe(path)
  })
})
