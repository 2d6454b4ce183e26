/**
 * What still breaks the hub's shape (docs/architecture.md), one line per pair of folders or knot,
 * as test/architecture.test.ts finds it. The list only shrinks: mend a line's imports, then delete
 * the line; a new break fails the test.
 */
export const STILL_KNOTTED: readonly string[] = [
  'feature imports a feature: hub/features/account -> hub/features/oidc',
  'feature imports a feature: hub/features/account -> hub/features/privacy',
  'feature imports a feature: hub/features/activity -> hub/features/privacy',
  'feature imports a feature: hub/features/billing -> hub/features/export',
  'feature imports a feature: hub/features/export -> hub/features/privacy',
  'feature imports a feature: hub/features/passkeys -> hub/features/export',
  'feature imports a feature: hub/features/two-step -> hub/features/export',
  'folders knotted in hub/kernel: accounts, audit, http, mail, pipeline, security-events, sessions, tokens',
  'folders knotted in hub: features, kernel',
  'kernel imports a feature: hub/kernel/audit -> hub/features/privacy',
  'kernel imports a feature: hub/kernel/pipeline -> hub/features/billing',
  'kernel imports a feature: hub/kernel/pipeline -> hub/features/oidc'
]
