/**
 * What CI prints after the suite, read from vitest's JSON report: each test that passed only on a
 * retry, with its first failure (CI keeps the end of its log, so a flake is said where it is seen),
 * then one plain line of counts, whatever reporter formatting came before.
 *
 *   node scripts/test-summary.mjs [report]   (default test-results/vitest.json)
 */
import fs from 'node:fs'
import process from 'node:process'

const say = (line) => process.stdout.write(`${line}\n`)

const FIRST_FAILURE_CHARS = 6000

const report = JSON.parse(fs.readFileSync(process.argv[2] ?? 'test-results/vitest.json', 'utf8'))
for (const file of report.testResults) {
  for (const test of file.assertionResults) {
    if (test.status !== 'passed' || test.failureMessages.length === 0) continue
    say(`Passed on a retry: ${test.fullName}\nIt first failed with: ${test.failureMessages[0].slice(0, FIRST_FAILURE_CHARS)}`)
  }
}
// A file that fails outside any test (an empty suite, an import error) counts as a failure too.
const failed = report.numFailedTests || (report.success ? 0 : Math.max(1, report.numFailedTestSuites))
say(`${report.numPassedTests} passed, ${failed} failed, ${report.numPendingTests + report.numTodoTests} skipped`)
