import { createHash } from 'node:crypto'
import type { CspReportsTable } from '../../../shared/database/schema.js'

/**
 * One CSP violation as the hub keeps it, whichever format reported it; its strings are already
 * storable (see sanitize.ts) and its directive is the name alone, e.g. `script-src-elem`.
 */
export type CspViolation = Pick<
  CspReportsTable,
  'documentUri' | 'directive' | 'blockedUri' | 'sourceFile' | 'lineNumber' | 'userAgent'
>

/** A distinct violation and how many times a request reported it. */
export interface ViolationOccurrences {
  fingerprint: string
  violation: CspViolation
  occurrences: number
}

/**
 * Two reports are the same violation when page, directive, blocked resource and source location
 * agree; the user agent is not part of it, so one bug seen by many browsers stays one row.
 */
export function fingerprintOf(violation: CspViolation): string {
  const { documentUri, directive, blockedUri, sourceFile, lineNumber } = violation
  return createHash('sha256').update(JSON.stringify([documentUri, directive, blockedUri, sourceFile, lineNumber])).digest('hex')
}

/**
 * Folds repeats within one request (a batch often carries the same violation many times) into one
 * write each, ordered by fingerprint so concurrent writers touch rows in the same order.
 */
export function groupByFingerprint(violations: readonly CspViolation[]): ViolationOccurrences[] {
  const groups = new Map<string, ViolationOccurrences>()
  for (const violation of violations) {
    const fingerprint = fingerprintOf(violation)
    const group = groups.get(fingerprint)
    if (group) {
      group.occurrences += 1
      group.violation = violation
    } else {
      groups.set(fingerprint, { fingerprint, violation, occurrences: 1 })
    }
  }
  return [...groups.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1))
}
