import { parseArgs } from 'node:util'
import { openDatabase } from '../shared/database/connect.js'
import { migrateToLatest } from '../shared/database/migrate.js'
import { readConfigOrExit } from '../shared/runtime.js'
import { type ViolationSummary, mostFrequentViolations } from '../hub/csp/top.js'

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 1000
/** Table cells are cut to this width so a long URI does not push the table off the screen. */
const CELL_WIDTH = 60

const USAGE = `List the most frequent CSP violations reported to the hub (the same database as the
services: DATABASE_URL or DATA_DIR).

Usage:
  npm run csp:top -- [--limit N]

--limit  how many violations to list, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})

Most reported first. Cells longer than ${CELL_WIDTH} characters are cut and end with "…".`

const values = parseCommandLine()
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const limit = parseLimit(values.limit)

const config = readConfigOrExit()
const { db } = openDatabase(config.shared)
try {
  await migrateToLatest(db)
  const violations = await mostFrequentViolations(db, limit)
  if (violations.length === 0) console.error('No CSP reports.')
  else console.log(formatTable(violations))
} finally {
  await db.destroy()
}

function parseCommandLine() {
  try {
    return parseArgs({ options: { limit: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values
  } catch (error) {
    return exitWithUsage((error as Error).message)
  }
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return exitWithUsage(`--limit must be an integer from 1 to ${MAX_LIMIT}.`)
  }
  return limit
}

function exitWithUsage(message: string): never {
  console.error(`${message}\n\n${USAGE}`)
  process.exit(2)
}

function formatTable(violations: readonly ViolationSummary[]): string {
  const header = ['count', 'last seen', 'directive', 'document', 'blocked', 'source']
  const rows = violations.map((violation) => [
    String(violation.count),
    violation.lastSeen,
    violation.directive,
    violation.documentUri,
    violation.blockedUri ?? '-',
    violation.sourceFile ? `${violation.sourceFile}:${violation.lineNumber ?? '?'}` : '-'
  ])
  const cells = [header, ...rows].map((row) => row.map(fitCell))
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)))
  return cells.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n')
}

function fitCell(text: string): string {
  return text.length <= CELL_WIDTH ? text : `${text.slice(0, CELL_WIDTH - 1)}…`
}
