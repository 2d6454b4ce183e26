import type ProviderClass from 'oidc-provider'

/**
 * oidc-provider, loaded with its import-time notices held back. On Node 20 it prints, as plain text,
 * that its author supports Node 22 and later (every API it calls exists in Node 20.19); the hub's
 * log is JSON lines only, so the notices are kept here and logged through pino by the provider's
 * routes instead of reaching stderr on their own.
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
export const oidcProviderNotices: readonly string[] = notices
