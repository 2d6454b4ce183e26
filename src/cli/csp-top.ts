import type { Config } from '../shared/config.js'
import { withDatabase } from './database.js'
import { type ViolationSummary, mostFrequentViolations } from '../hub/features/csp/top.js'
import { truncate } from '../hub/kernel/http/storable-text.js'
import { escapeForTerminal } from './terminal-text.js'
import { DEFAULT_LIMIT, MAX_LIMIT, CELL_WIDTH } from './csp-top-help.js'

export interface CspTopIo {
  out: (line: string) => void
  err: (line: string) => void
}

/** `npm run hub -- csp:top [--limit N]`; resolves to the exit code (2 for a bad --limit). */
export async function cspTop(config: Config, limitArgument: string | undefined, io: CspTopIo): Promise<number> {
  const limit = limitArgument === undefined ? DEFAULT_LIMIT : Number(limitArgument)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    io.err(`--limit must be an integer from 1 to ${MAX_LIMIT}.`)
    return 2
  }
  const violations = await withDatabase(config.shared, (db) => mostFrequentViolations(db, limit))
  if (violations.length === 0) io.err('No CSP reports.')
  else io.out(formatViolationTable(violations))
  return 0
}

/**
 * The violations as a plain-text table. Reports come from anyone, so every cell is escaped for the
 * terminal before it is measured and cut; the stored rows are left as they are.
 */
export function formatViolationTable(violations: readonly ViolationSummary[]): string {
  const header = ['count', 'last seen', 'directive', 'document', 'blocked', 'source']
  const rows = violations.map((violation) => [
    String(violation.count),
    violation.lastSeen,
    violation.directive,
    violation.documentUri,
    violation.blockedUri ?? '-',
    violation.sourceFile ? `${violation.sourceFile}:${violation.lineNumber ?? '?'}` : '-'
  ])
  const cells = [header, ...rows].map((row) => row.map((cell) => fitCell(escapeForTerminal(cell))))
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)))
  return cells.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n')
}

function fitCell(text: string): string {
  return text.length <= CELL_WIDTH ? text : `${truncate(text, CELL_WIDTH - 1)}…`
}
