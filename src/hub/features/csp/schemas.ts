import { type Static, Type } from 'typebox'

/** Reports larger than this are refused with 413; a real report is a few hundred bytes. */
export const CSP_REPORT_BODY_LIMIT_BYTES = 64 * 1024
/** The most reports one Reporting API batch may carry; each distinct one costs a database write. */
export const MAX_REPORTS_PER_BATCH = 100

const NullableString = Type.Union([Type.String(), Type.Null()])
/** What names the violation: without it a report says nothing. */
const Required = Type.String({ minLength: 1 })
// Line numbers are unsigned longs in the CSP spec; larger ones than a 32-bit column holds are nonsense.
const LineNumber = Type.Integer({ minimum: 0, maximum: 2_147_483_647 })

/** CSP level 2, as `report-uri` sends it. Other keys (original-policy, script-sample, ...) are ignored. */
export const CspLevel2Report = Type.Object({
  'csp-report': Type.Object({
    'document-uri': Required,
    'violated-directive': Required,
    'effective-directive': Type.Optional(Required),
    'blocked-uri': Type.Optional(NullableString),
    'source-file': Type.Optional(NullableString),
    'line-number': Type.Optional(Type.Union([LineNumber, Type.Null()]))
  })
})
export type CspLevel2Report = Static<typeof CspLevel2Report>

/** One Reporting API report of type `csp-violation`, as `report-to` sends it. */
export const CspViolationReport = Type.Object({
  type: Type.Literal('csp-violation'),
  user_agent: Type.Optional(Type.String()),
  body: Type.Object({
    documentURL: Required,
    effectiveDirective: Required,
    blockedURL: Type.Optional(NullableString),
    sourceFile: Type.Optional(NullableString),
    lineNumber: Type.Optional(Type.Union([LineNumber, Type.Null()]))
  })
})
export type CspViolationReport = Static<typeof CspViolationReport>

/** A report of another type (deprecation, intervention, ...) sharing the endpoint; ignored. */
const OtherReport = Type.Object({ type: Type.String({ not: { const: 'csp-violation' } }) })

export const ReportingApiBatch = Type.Array(Type.Union([CspViolationReport, OtherReport]), {
  minItems: 1,
  maxItems: MAX_REPORTS_PER_BATCH,
  contains: CspViolationReport,
  description: 'Reports of other types are ignored, but the batch must hold at least one csp-violation'
})

export const CspReportBody = Type.Union([CspLevel2Report, ReportingApiBatch], {
  description: 'Either format under any of the three content types'
})
export type CspReportBody = Static<typeof CspReportBody>
