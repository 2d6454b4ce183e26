import { describe, expect, it } from 'vitest'
import { MAX_URI_LENGTH, storableDirective, storableUri } from '../../../../src/hub/features/csp/sanitize.js'
import { storableUserAgent, truncate } from '../../../../src/hub/kernel/http/storable-text.js'

describe('storableUri', () => {
  it.each([
    ['https://hub.example/inbox?email=alice%40example.com#message-7', 'https://hub.example/inbox'],
    ['https://alice:secret@cdn.example/lib.js', 'https://cdn.example/lib.js'],
    ['HTTPS://CDN.Example:443/a/b.js?v=1', 'https://cdn.example/a/b.js'],
    ['wss://socket.example/live?token=abc', 'wss://socket.example/live'],
    ['chrome-extension://abcdef/content.js?x=1', 'chrome-extension://abcdef/content.js'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'data'],
    ['blob:https://hub.example/0b8e6e0c-5a9f-4c1e-8b1e-1f0e0c0d0e0f', 'blob'],
    ['javascript:alert(document.cookie)', 'javascript'],
    ['inline', 'inline'],
    ['eval', 'eval'],
    ['/relative/path?secret=1#x', '/relative/path'],
    ['  https://hub.example/\u0000page  ', 'https://hub.example/page'],
    ['not a url ?query', 'not a url ']
  ])('%j → %j', (uri, stored) => {
    expect(storableUri(uri)).toBe(stored)
  })

  it(`cuts a long URI to ${MAX_URI_LENGTH} characters`, () => {
    expect(storableUri(`https://hub.example/${'p'.repeat(3000)}`)).toHaveLength(MAX_URI_LENGTH)
  })
})

describe('storableDirective', () => {
  it.each([
    ['script-src-elem', 'script-src-elem'],
    ["script-src 'self' https://cdn.example", 'script-src'],
    ['  Img-Src\t data:', 'img-src'],
    ['x'.repeat(500), 'x'.repeat(128)]
  ])('%j → %j', (directive, stored) => {
    expect(storableDirective(directive)).toBe(stored)
  })
})

describe('storableUserAgent and truncate', () => {
  it('drops control characters and bounds the user agent', () => {
    expect(storableUserAgent('Mozilla/5.0\u0000\r\n (X11)')).toBe('Mozilla/5.0 (X11)')
    expect(storableUserAgent('u'.repeat(1000))).toHaveLength(512)
  })

  it('never splits a surrogate pair', () => {
    expect(truncate('ab😀', 3)).toBe('ab')
    expect(truncate('ab😀', 4)).toBe('ab😀')
  })
})
