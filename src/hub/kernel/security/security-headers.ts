import { pooledRandomBytes } from './random-pool.js'

export const CSP_REPORT_PATH = '/api/csp-report'
/** How long a browser that reached a service over https keeps to https: a year, for the hub and the task manager alike. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60

/** One response's nonces: an inline script or style runs only when it carries its response's nonce. */
export interface CspNonce {
  script: string
  style: string
}

export function freshCspNonce(): CspNonce {
  return { script: pooledRandomBytes(16).toString('hex'), style: pooledRandomBytes(16).toString('hex') }
}

/** The strict policy: everything from our own origin, inline code only with the nonce, never framed. */
export function contentSecurityPolicy(nonce: CspNonce): string {
  return (
    "default-src 'self'; " +
    `script-src 'self' 'nonce-${nonce.script}'; ` +
    `style-src 'self' 'nonce-${nonce.style}'; ` +
    "img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; " +
    `report-uri ${CSP_REPORT_PATH}`
  )
}

/**
 * `policy` with `images` (absolute http(s) URLs) also allowed as image sources: for the one page
 * that shows them (an application's logo), each by its exact address without its query, so the
 * rest of the hub keeps `img-src 'self' data:`. The URLs must hold no `;`, `,`, quote or space
 * (clients.ts refuses them), which would end the source list.
 */
export function policyWithImages(policy: string, images: readonly string[]): string {
  const sources = [...new Set(images.map((image) => new URL(image)).map((url) => `${url.origin}${url.pathname}`))]
  if (sources.length === 0) return policy
  return policy.replace("img-src 'self' data:", `img-src 'self' data: ${sources.join(' ')}`)
}

/** Helmet's defaults with HSTS for a year (subdomains included), framing denied, no referrer and an isolated opener. */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0'
})

/**
 * The static headers that govern only a page a browser renders: how it refers, opens, isolates and
 * prefetches, and the browser features of old (the XSS auditor, IE's downloads, Flash's policies),
 * and who may embed it. On a public JSON document, read by an application's server, they do
 * nothing; a replayed fixed document (`pipeline/fixed-documents.ts`) leaves them out and keeps
 * HSTS, `nosniff` and `X-Frame-Options`, with NOT_A_PAGE_CSP for its policy.
 */
export const PAGE_ONLY_SECURITY_HEADERS: ReadonlySet<string> = new Set([
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection'
])

/** The policy of an answer that is never a page: it may load nothing and nothing may frame it. */
export const NOT_A_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'"

/** The headers every hub response carries: the CSP with this response's nonces, and the static ones. */
export function securityHeaders(nonce: CspNonce): Record<string, string> {
  return { 'content-security-policy': contentSecurityPolicy(nonce), ...STATIC_SECURITY_HEADERS }
}
