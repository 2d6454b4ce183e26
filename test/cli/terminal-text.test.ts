import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeForTerminal } from '../../src/cli/terminal-text.js'

describe('escapeForTerminal', () => {
  it.each([
    ['ESC (C0), the start of every ANSI sequence', '\u001b[2J', '\\u{1b}[2J'],
    ['NUL, tab, newline, carriage return', 'a\u0000b\tc\nd\re', 'a\\u{0}b\\u{9}c\\u{a}d\\u{d}e'],
    ['DEL', 'a\u007f', 'a\\u{7f}'],
    ['CSI (C1), an 8-bit escape sequence', '\u009b31mred', '\\u{9b}31mred'],
    ['OSC and ST (C1), which set the window title', '\u009d0;pwned\u009c', '\\u{9d}0;pwned\\u{9c}'],
    ['right-to-left override', 'inline\u202egnp.exe', 'inline\\u{202e}gnp.exe'],
    ['every bidi embedding and override', '\u202a\u202b\u202c\u202d\u202e', '\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}'],
    ['bidi isolates', '\u2066\u2067\u2068\u2069', '\\u{2066}\\u{2067}\\u{2068}\\u{2069}'],
    ['zero-width characters and marks', '\u200b\u200c\u200d\u200e\u200f', '\\u{200b}\\u{200c}\\u{200d}\\u{200e}\\u{200f}'],
    ['byte order mark, word joiner, soft hyphen', '\ufeff\u2060\u00ad', '\\u{feff}\\u{2060}\\u{ad}'],
    ['Arabic letter mark', '\u061c', '\\u{61c}'],
    ['line and paragraph separators', '\u2028\u2029', '\\u{2028}\\u{2029}'],
    ['no-break and ideographic spaces', '\u00a0\u3000', '\\u{a0}\\u{3000}'],
    ['Hangul filler, invisible yet a letter', 'a\u3164b', 'a\\u{3164}b'],
    ['tag characters', '\u{e0041}', '\\u{e0041}'],
    ['private use', '\ue000', '\\u{e000}'],
    ['unassigned', '\u{10ffff}', '\\u{10ffff}'],
    ['a lone surrogate', 'a\ud800b', 'a\\u{d800}b'],
    ['a backslash, so no escape can be forged', '\\u{202e}', '\\\\u{202e}']
  ])('escapes %s', (_name, text, expected) => {
    expect(escapeForTerminal(text)).toBe(expected)
  })

  it.each([
    ['a URI', "https://hub.example/dashboard?x=1 'self'"],
    ['accents, other scripts and emoji', 'café 日本語 עברית 😀']
  ])('leaves %s as it is', (_name, text) => {
    expect(escapeForTerminal(text)).toBe(text)
  })

  it('never lets a control, format or separator character through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(escapeForTerminal(text)).not.toMatch(/[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u)
      }),
      { numRuns: 1_000 }
    )
  })
})
