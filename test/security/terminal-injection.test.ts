import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatViolationTable } from '../../src/cli/csp-top.js'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { createCspReportRepository } from '../../src/hub/features/csp/repository.js'
import { mostFrequentViolations } from '../../src/hub/features/csp/top.js'
import { groupByFingerprint } from '../../src/hub/features/csp/violation.js'
import type { App } from '../../src/shared/http/server.js'
import { buildTestCspApp } from '../helpers/csp-app.js'
import { type TestDatabase, databasesUnderTest } from '../helpers/databases.js'

/**
 * Attack: anyone may post a CSP report, and `csp:top` prints reports to the operator's terminal.
 * A report carrying C1 controls (8-bit escape sequences: clear the screen, set the window title)
 * or bidi overrides and invisible characters (to make `gnp.exe` read as `exe.png`, or hide text)
 * would act on the terminal, or mislead whoever reads it, rather than be shown.
 */

/** What a terminal would act on or hide; none of it may reach the operator's screen. */
const TERMINAL_ACTIVE = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u

const HOSTILE_DIRECTIVE = 'img-src\u009b2J\u009d0;pwned\u009c'
const HOSTILE_BLOCKED = 'inline\ufeff\u202egnp.exe\u2066\u200b'

describe.each(databasesUnderTest())('terminal injection through csp:top on $name', (database) => {
  let handle: TestDatabase
  let app: App

  beforeAll(async () => {
    handle = await database.open()
    app = await buildTestCspApp(handle.db)
    const report = { 'csp-report': { 'document-uri': 'https://hub.example/page', 'effective-directive': HOSTILE_DIRECTIVE, 'violated-directive': HOSTILE_DIRECTIVE, 'blocked-uri': HOSTILE_BLOCKED } }
    const response = await app.inject({ method: 'POST', url: '/api/csp-report', headers: { 'content-type': 'application/csp-report' }, payload: JSON.stringify(report) })
    expect(response.statusCode).toBe(204)
    // Rows stored by an earlier version, or by hand, may hold C0 controls that intake now removes.
    const stored = { documentUri: 'https://hub.example/old', directive: 'style-src\u001b]0;pwned\u0007', blockedUri: 'inline\u007f', sourceFile: null, lineNumber: null, userAgent: null }
    await createCspReportRepository(handle.db).record(groupByFingerprint([stored]), new Date())
  })
  afterAll(async () => {
    await app.close()
    await handle.destroy()
  })

  it('prints every control, bidi and invisible character of an unauthenticated report as a visible escape', async () => {
    const table = formatViolationTable(await mostFrequentViolations(handle.db, 10))
    for (const line of table.split('\n')) expect(line).not.toMatch(TERMINAL_ACTIVE)
    expect(table).toContain('img-src\\u{9b}2j\\u{9d}0;pwned\\u{9c}')
    expect(table).toContain('inline\\u{feff}\\u{202e}gnp.exe\\u{2066}\\u{200b}')
    expect(table).toContain('style-src\\u{1b}]0;pwned\\u{7}')
    expect(table).toContain('inline\\u{7f}')
  })

  it('escapes on output only: the stored report keeps its characters', async () => {
    const rows = await mostFrequentViolations(handle.db, 10)
    expect(rows.map((row) => row.blockedUri)).toContain(HOSTILE_BLOCKED)
  })

  // The CLI reads DATA_DIR's SQLite file; it cannot be pointed at a test run's PostgreSQL schema.
  // Defined for SQLite alone, so PostgreSQL reports no skipped test.
  if (database.name === 'sqlite') it('npm run hub -- csp:top prints the escapes', async () => {
    const out: string[] = []
    const code = await runHubCli(['csp:top'], { env: { DATA_DIR: handle.dataDir }, readStdin: async () => '', out: (line) => out.push(line), err: () => {} })
    expect(code).toBe(0)
    const printed = out.join('\n')
    expect(printed).toContain('\\u{202e}gnp.exe')
    for (const line of printed.split('\n')) expect(line).not.toMatch(TERMINAL_ACTIVE)
  })
})
