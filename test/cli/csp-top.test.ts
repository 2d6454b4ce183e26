import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { createCspReportRepository } from '../../src/hub/features/csp/repository.js'
import { groupByFingerprint } from '../../src/hub/features/csp/violation.js'
import { openDatabase } from '../../src/shared/database/connect.js'
import { migrateToLatest } from '../../src/shared/database/migrate.js'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'))

const violation = (directive: string) => ({
  documentUri: 'https://hub.example/dashboard',
  directive,
  blockedUri: 'inline',
  sourceFile: 'https://hub.example/app.js',
  lineNumber: 7,
  userAgent: 'Firefox/140'
})

/** `npm run hub -- csp:top ...` on an embedded database. */
describe('hub CLI csp:top', () => {
  beforeAll(async () => {
    const { db } = openDatabase({ databaseUrl: undefined, dataDir })
    await migrateToLatest(db)
    const reports = createCspReportRepository(db)
    await reports.record(groupByFingerprint([violation('img-src'), violation('style-src'), violation('style-src')]), new Date())
    await db.destroy()
  })
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  const cli = async (...args: string[]) => {
    const out: string[] = []
    const err: string[] = []
    const code = await runHubCli(['csp:top', ...args], {
      env: { DATA_DIR: dataDir },
      readStdin: async () => '',
      out: (line) => out.push(line),
      err: (line) => err.push(line)
    })
    return { code, out: out.join('\n'), err: err.join('\n') }
  }

  it('is listed in the hub CLI usage', async () => {
    const { code, out } = await cli('--help')
    expect(code).toBe(0)
    expect(out).toMatch(/npm run hub -- csp:top \[--limit N\]/)
  })

  it('prints a table of the most frequent violations, most first', async () => {
    const { code, out } = await cli()
    expect(code).toBe(0)
    const lines = out.trim().split('\n')
    expect(lines[0]).toMatch(/^count\s+last seen\s+directive\s+document\s+blocked\s+source$/)
    const lastSeen = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/)
    expect(lines.slice(1).map((line) => line.split(/\s+/))).toEqual([
      ['2', lastSeen, 'style-src', 'https://hub.example/dashboard', 'inline', 'https://hub.example/app.js:7'],
      ['1', lastSeen, 'img-src', 'https://hub.example/dashboard', 'inline', 'https://hub.example/app.js:7']
    ])
  })

  it('lists no more than --limit', async () => {
    const { out } = await cli('--limit', '1')
    expect(out.trim().split('\n')).toHaveLength(2)
  })

  it('says so when there is no report', async () => {
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'))
    const err: string[] = []
    const code = await runHubCli(['csp:top'], { env: { DATA_DIR: emptyDir }, readStdin: async () => '', out: () => {}, err: (line) => err.push(line) })
    fs.rmSync(emptyDir, { recursive: true, force: true })
    expect(code).toBe(0)
    expect(err).toEqual(['No CSP reports.'])
  })

  it.each([
    [['--limit', '0'], /--limit must be an integer from 1 to 1000/],
    [['--limit', '1001'], /--limit must be an integer from 1 to 1000/],
    [['--limit', 'many'], /--limit must be an integer/],
    [['--colour'], /Unknown option/]
  ])('refuses %j with exit code 2 and says why', async (args, message) => {
    const { code, err } = await cli(...args)
    expect(code).toBe(2)
    expect(err).toMatch(message)
  })
})
