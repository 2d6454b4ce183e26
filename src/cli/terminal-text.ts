/**
 * Characters a terminal would act on or hide rather than show: controls (C0, DEL, C1: escape
 * sequences, cursor moves), formatting (bidi overrides and isolates, zero-width characters, the
 * BOM, tags), line and paragraph separators, spaces other than U+0020, other default-ignorable
 * code points (Hangul fillers), lone surrogates, private-use and unassigned code points. The
 * backslash is listed so that an escape in the output always stands for an escaped character.
 */
const UNSAFE_FOR_TERMINAL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\\]|(?! )\p{Zs}/gu

/**
 * Text from outside (reports, headers, accounts) as an operator's terminal may print it: every
 * character it would not show as itself becomes a visible `\u{202e}`, and `\` becomes `\\`.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, (character) =>
    character === '\\' ? '\\\\' : `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`
  )
}
