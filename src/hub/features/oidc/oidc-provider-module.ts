import type ProviderClass from 'oidc-provider'

/**
 * oidc-provider, loaded with its import-time notices held back: the hub's log is JSON lines only,
 * so they are kept here and logged through pino by the provider's routes instead of reaching
 * stderr on their own.
 */
const notices: string[] = []
const { info, warn } = console
const keep = (...parts: unknown[]) => void notices.push(parts.map(String).join(' '))
console.info = keep
console.warn = keep
const loaded = await import('oidc-provider').finally(() => {
  console.info = info
  console.warn = warn
})

export const Provider = loaded.default
export type Provider = ProviderClass
export const interactionPolicy = loaded.interactionPolicy
export const providerErrors = loaded.errors

/**
 * On Node 20 every oidc-provider 9 release says at import that its author supports Node 22 LTS and
 * later; no 9.x lacks the check, and 8.x is an older API. Every API it calls exists in Node 20.19,
 * the project's floor (docs/oidc.md, "Running it"), so on Node 20 this one notice, word for word,
 * is known and reviewed: it is logged at debug, not as a warning at every start. Any other notice,
 * or this one reworded by a newer release, is still a warning.
 */
export function isReviewedNotice(text: string, nodeVersion = process.versions.node): boolean {
  return nodeVersion.split('.')[0] === '20' && text === 'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.'
}

export const oidcProviderNotices: readonly { text: string; reviewed: boolean }[] = notices.map((text) => ({ text, reviewed: isReviewedNotice(text) }))
