import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/test-summary.mjs')

const passed = (fullName: string, failureMessages: string[] = []) => ({ fullName, status: 'passed', failureMessages })

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-summary-'))
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }))

/** Runs the summary on a report of vitest's JSON shape and returns what it printed. */
function summaryOf(report: Record<string, unknown>): string {
  const file = path.join(reports, `${fs.readdirSync(reports).length}.json`)
  fs.writeFileSync(file, JSON.stringify({ numPassedTests: 0, numFailedTests: 0, numFailedTestSuites: 0, numPendingTests: 0, numTodoTests: 0, success: true, testResults: [], ...report }))
  const run = spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' })
  expect(run.status).toBe(0)
  return run.stdout
}

describe('scripts/test-summary.mjs, what CI prints after the suite', () => {
  it('names a test that passed only on a retry, with its first failure, and ends with the counts', () => {
    const printed = summaryOf({
      numPassedTests: 2,
      numPendingTests: 1,
      testResults: [{ assertionResults: [passed('steady'), passed('flaky', ['Error: the page is at /auth/callback'])] }]
    })
    expect(printed).toBe('Passed on a retry: flaky\nIt first failed with: Error: the page is at /auth/callback\n2 passed, 0 failed, 1 skipped\n')
  })

  it('counts a file that failed outside any test as a failure', () => {
    expect(summaryOf({ numPassedTests: 3, success: false, numFailedTestSuites: 1 })).toBe('3 passed, 1 failed, 0 skipped\n')
  })
})
