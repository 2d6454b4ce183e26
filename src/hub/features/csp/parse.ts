import type { CspLevel2Report, CspReportBody, CspViolationReport } from './schemas.js'
import { storableUserAgent } from '../../kernel/http/storable-text.js'
import { storableDirective, storableUri } from './sanitize.js'
import type { CspViolation } from './violation.js'

/**
 * Normalises a validated body, in either format, into the violations it reports.
 * The request's User-Agent stands in where the report names none (CSP 2 reports never do).
 */
export function violationsFrom(body: CspReportBody, requestUserAgent: string | undefined): CspViolation[] {
  if (!Array.isArray(body)) return [fromLevel2Report(body, requestUserAgent)]
  return body.filter(isCspViolation).map((report) => fromReportingApi(report, requestUserAgent))
}

function fromLevel2Report({ 'csp-report': report }: CspLevel2Report, requestUserAgent: string | undefined): CspViolation {
  return {
    documentUri: storableUri(report['document-uri']),
    // effective-directive names the directive alone; violated-directive may list its sources too.
    directive: storableDirective(report['effective-directive'] ?? report['violated-directive']),
    blockedUri: optionalUri(report['blocked-uri']),
    sourceFile: optionalUri(report['source-file']),
    lineNumber: report['line-number'] ?? null,
    userAgent: optionalUserAgent(requestUserAgent)
  }
}

function fromReportingApi({ body, user_agent }: CspViolationReport, requestUserAgent: string | undefined): CspViolation {
  return {
    documentUri: storableUri(body.documentURL),
    directive: storableDirective(body.effectiveDirective),
    blockedUri: optionalUri(body.blockedURL),
    sourceFile: optionalUri(body.sourceFile),
    lineNumber: body.lineNumber ?? null,
    userAgent: optionalUserAgent(user_agent ?? requestUserAgent)
  }
}

function isCspViolation(report: { type: string }): report is CspViolationReport {
  return report.type === 'csp-violation'
}

const optionalUri = (uri: string | null | undefined) => (uri ? storableUri(uri) : null)
const optionalUserAgent = (userAgent: string | undefined) => (userAgent ? storableUserAgent(userAgent) : null)
