import type ProviderClass from 'oidc-provider'
import type { errors as ProviderErrors, interactionPolicy as InteractionPolicy } from 'oidc-provider'
import { loadOnce } from '../../../shared/load-once.js'

export type Provider = ProviderClass

export interface OidcProviderLibrary {
  Provider: typeof ProviderClass
  interactionPolicy: typeof InteractionPolicy
  errors: typeof ProviderErrors
  /** What it said at import, held back for the hub's log. */
  notices: readonly { text: string; reviewed: boolean }[]
}

/**
 * oidc-provider, imported on the first request that needs the provider rather than at start-up
 * (about 40 MB and 220 ms a hub that serves no application never spends: docs/performance.md,
 * issue 32), with its import-time notices held back: the hub's log is JSON lines only, so they are
 * kept here and logged through pino by the provider's routes instead of reaching stderr on their own.
 */
export const loadOidcProvider = loadOnce(async (): Promise<OidcProviderLibrary> => {
  const notices: string[] = []
  const { info, warn } = console
  const keep = (...parts: unknown[]) => void notices.push(parts.map(String).join(' '))
  console.info = keep
  console.warn = keep
  const loaded = await import('oidc-provider').finally(() => {
    console.info = info
    console.warn = warn
  })
  return {
    Provider: loaded.default,
    interactionPolicy: loaded.interactionPolicy,
    errors: loaded.errors,
    notices: notices.map((text) => ({ text, reviewed: isReviewedNotice(text) }))
  }
})

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
